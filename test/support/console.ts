/** The operator console as a signed-in operator reaches it in the Workers tests. */
import { ADMIN_TOKEN, BASE, call } from './harness';

/** The session cookie the console's sign-in form gives `token` (the admin token by default). */
export async function consoleCookie(token = ADMIN_TOKEN): Promise<string> {
  const res = await call('/admin/console/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE },
    body: new URLSearchParams({ token }).toString(),
    redirect: 'manual',
  });
  return (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
}
