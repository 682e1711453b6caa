// The suite's authorization-server checks against the tutorial's authorization server. The suite acts as an OAuth
// client whose user sits at a browser: it prints an authorization URL and waits for the redirect on
// 127.0.0.1:<port>/callback. This file registers that client and plays the user with the tutorial's own headless
// browser, found through the role table, as are the server and the browser.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";
import { startServer } from "./processes.ts";

type Follow = (start: URL, redirectUri: string) => Promise<URLSearchParams>;
const { followToRedirectUri } = (await import(roleProgram("OAuth redirects without a browser"))) as {
  followToRedirectUri: Follow;
};

// The MCP server the suite asks a token for (RFC 8707). Nothing needs to listen there: the suite only checks that the
// authorization server issues a token for it; the protected-resource step's tests check that an MCP server accepts one.
const RESOURCE = "http://127.0.0.1:1/mcp";

/** A port nothing listens on now, for the suite's callback server. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Registers a public client for `redirectUri` (RFC 7591) and returns its client_id. */
async function register(issuer: string, redirectUri: string): Promise<string> {
  const metadata = {
    client_name: "conformance suite",
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code"],
    response_types: ["code"],
  };
  const response = await fetch(`${issuer}/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(metadata),
  });
  const body = (await response.json()) as { client_id?: string };
  if (response.status !== 201 || typeof body.client_id !== "string")
    throw new Error(`registration refused (${response.status}): ${JSON.stringify(body)}`);
  return body.client_id;
}

/**
 * Plays the user once the suite's output shows the authorization URL: follows it to the redirect and hands that to the
 * suite's callback. When the authorization server leads anywhere else, the callback hears an error at once, so the
 * suite fails now instead of after its 5-minute wait.
 */
function userAt(redirectUri: string): (output: string) => void {
  let done = false;
  return (output) => {
    const url = /Access the following URL in your browser[^\n]*\n(http\S+)\n/.exec(output)?.[1];
    if (done || url === undefined) return;
    done = true;
    const state = new URL(url).searchParams.get("state") ?? "";
    followToRedirectUri(new URL(url), redirectUri)
      .catch(
        (error: Error) =>
          new URLSearchParams({
            error: "server_error",
            error_description: `the user could not finish: ${error.message}`,
            state,
          }),
      )
      .then((query) => fetch(`${redirectUri}?${query}`))
      .catch((error: Error) =>
        console.error(`conformance authorization: cannot reach the suite's callback: ${error.message}`),
      );
  };
}

/** Starts the authorization server and returns the suite's arguments against it, and the user to play. */
export async function authorizationRun(
  tsx: string,
  cwd: string,
): Promise<{ args: string[]; watch: (output: string) => void }> {
  const issuer = await startServer(
    "the authorization server",
    process.execPath,
    ["--import", tsx, roleProgram("OAuth authorization server"), "--port", "0"],
    cwd,
  );
  const port = await freePort();
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  const clientId = await register(issuer, redirectUri);
  return {
    args: ["authorization", "--url", issuer, "--client-id", clientId, "--port", String(port), "--resource", RESOURCE],
    watch: userAt(redirectUri),
  };
}
