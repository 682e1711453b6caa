// A program without a browser plays one: it follows the authorization server's redirects itself, where a browser
// would show the login page, and reads the code from the last one.

//#region follow
/**
 * Plays the browser: follows redirects, carrying the server's cookies, until one leads to `redirectUri`; returns its
 * query.
 */
export async function followToRedirectUri(start: URL, redirectUri: string): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  let url = start;
  for (let hops = 0; hops < 10; hops++) {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
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
