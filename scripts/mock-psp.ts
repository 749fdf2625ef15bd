/**
 * npm run mock:psp — a local PSP for trying a real-bank partner without a bank: API Pix (validated
 * against bacen/pix-api's openapi.yaml) and Efí Pix Send (validated against Efí's SDK schemas) on
 * http://127.0.0.1:$PORT (default 8790), with `/__control/…` to act as the payer and the network
 * (test/setup/fake-psp.ts lists them). Prints the `npm start` arguments that declare it as a partner.
 */
import { startMockPsp } from '../test/support/mock-psp-server';

const psp = await startMockPsp(Number(process.env.PORT ?? 8790));
const args = Object.entries(psp.partnerVars).map(([k, v]) => `--var '${k}:${v}'`);
console.log(`mock PSP (API Pix + Pix Send) on ${psp.url}`);
console.log(`point the gateway at it:\n  npm start -- ${args.join(' ')}`);
console.log(`every exchange validated so far: curl ${psp.url}/__control/invalid`);
