/**
 * npm run mock:psp — a local PSP for trying a real-bank partner without a bank: API Pix (validated
 * against bacen/pix-api's openapi.yaml) and Efí Pix Send (validated against Efí's SDK schemas) on
 * http://127.0.0.1:$PORT (default 8790), with `/__control/…` to act as the payer and the network
 * (docs/operating.md, "Local real-partner flow"). Like a real PSP it posts the API Pix callback
 * itself after a payment, a bank return or a devolution, so PAID arrives in seconds rather than at
 * the gateway's next sweep; likewise the Pix Automático `rec` and `cobr` callbacks after the payer's
 * side acts. Prints the `npm start` arguments that declare it as a partner.
 */
import { parseArgs } from 'node:util';
import { FAKE_PSP_ISPB } from '../test/support/fake-psp-env';
import { startMockPsp } from '../test/support/mock-psp-server';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run mock:psp -- [--port <n>] [--gateway <url>] [--no-callbacks]

A local PSP (API Pix + Efí Pix Send, every exchange validated) for the local real-partner flow.

  --port <n>        listen port (PORT, default 8790)
  --gateway <url>   where callbacks go when the gateway has not registered its webhook URL here
                    (GATEWAY_URL, default http://127.0.0.1:8787): <url>/partners/<ISPB>/webhook/<secret>/pix
  --no-callbacks    never post callbacks (post them by hand: see docs/operating.md)

Control API (POST JSON to http://127.0.0.1:<port>/__control/<name>): pay, return, devolution,
infraction, infraction-decide (MED disputes, as Efí lists them),
payout, fail-next, refuse-next-devolution, hold-next-devolution, release-devolution, callback;
Pix Automático: rec-approve, rec-reject,
rec-payer-cancel, cobr-pay, cobr-fail, cobr-payer-cancel, rec-callback, cobr-callback;
GET callbacks, cob/<txid>, pix/<e2eid>, sent/<transactionId>, webhook/<key>, rec/<idRec>,
cobr/<txid>, webhookrec, devolution-held, invalid. See docs/operating.md, "Local real-partner flow".
`);

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '8790' },
    gateway: { type: 'string', default: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8787' },
    'no-callbacks': { type: 'boolean', default: false },
  },
});

const psp = await startMockPsp(Number(values.port), {
  ...(!values['no-callbacks'] && {
    callbacks: { fallbackBase: values.gateway, log: (line) => console.log(`[mock-psp] ${line}`) },
  }),
});
const args = Object.entries(psp.partnerVars).map(([k, v]) => `--var '${k}:${v}'`);
console.log(`mock PSP (API Pix + Pix Send, ISPB ${FAKE_PSP_ISPB}) on ${psp.url}`);
console.log(`point the gateway at it:\n  npm start -- ${args.join(' ')}`);
console.log(
  values['no-callbacks']
    ? 'callbacks: off (post them by hand, docs/operating.md)'
    : `callbacks: posted after pay/return/devolution to the registered webhook URL, else ${values.gateway}`,
);
console.log(`every exchange validated so far: curl ${psp.url}/__control/invalid`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => psp.close().then(() => process.exit(0)));
