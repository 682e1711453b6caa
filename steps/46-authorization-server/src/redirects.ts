// A program without a browser plays one: it follows the authorization server's redirects to the code itself.

//#region follow
const unanswered = (url: URL, error: Error) => new Error(`no answer at ${url.pathname}: ${error.message}`);

/** Plays the browser: follows redirects, carrying the server's cookies, until one leads to `redirectUri`; returns its
 * query. Each page has `ms` to answer: a silent authorization server is an error, not a wait without end. */
export async function followToRedirectUri(start: URL, redirectUri: string, ms = 10_000): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  let url = start;
  for (let hops = 0; hops < 10; hops++) {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const get: RequestInit = { redirect: "manual", headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(ms) };
    const response = await fetch(url, get).catch((error: Error) => Promise.reject(unanswered(url, error)));
    for (const line of response.headers.getSetCookie()) {
      const [, name, value] = /^([^=]+)=([^;]*)/.exec(line) ?? [];
      if (name) cookies.set(name, value);
    }
    const location = response.headers.get("location");
    if (location === null)
      throw new Error(`the authorization server answered ${response.status} at ${url.pathname}, not a redirect`);
    url = new URL(location, url);
    if (`${url.origin}${url.pathname}` === redirectUri) return url.searchParams;
  }
  throw new Error("the authorization server redirected more than 10 times");
}
//#endregion
