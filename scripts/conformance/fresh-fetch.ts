// fetch, sent once more when a reused connection was already closing. On a busy machine the client can be idle longer
// than the suite's servers keep a connection open (node's 5 s): the next request then goes out on a socket the server
// is closing, and fails before the server read it. Any other failure is the caller's to report.
const CLOSED_UNDER_US = ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"];

export async function fetchOnFreshConnection(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (error) {
    const code = ((error as Error).cause as { code?: string } | undefined)?.code ?? "";
    if (!(error instanceof TypeError) || !CLOSED_UNDER_US.includes(code)) throw error;
    console.error(
      `[fetch] ${code} on a reused connection to ` +
        `${String(input instanceof Request ? input.url : input)}; sending once more`,
    );
    return fetch(input, init);
  }
}
