// A stand-in authorization server for the tests: its metadata and its public key over HTTP, and any token minted on
// demand with jose, valid or not, so that each check of the verifier can be made to fail on its own.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";

export interface Issuer {
  url: string;
  metadata: Record<string, unknown>;
  /**
   * A JWT access token for test-user with scope "mcp", valid 5 minutes, unless `claims` say otherwise (undefined drops
   * one). `forged` signs it with a key of the same kind and the same kid, which the issuer never published.
   */
  mint(claims: JWTPayload, options?: { forged?: boolean; typ?: string }): Promise<string>;
  close(): Promise<void>;
}

const KID = "test-key";

export async function startIssuer(): Promise<Issuer> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: "RS256", use: "sig" }] };
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const metadata = {
    issuer: url,
    authorization_endpoint: `${url}/auth`,
    token_endpoint: `${url}/token`,
    jwks_uri: `${url}/jwks`,
    response_types_supported: ["code"],
  };
  http.on("request", (request, response) => {
    const body = { "/.well-known/oauth-authorization-server": metadata, "/jwks": jwks }[request.url ?? ""];
    if (body === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });

  const forger = (await generateKeyPair("RS256")).privateKey;
  const mint: Issuer["mint"] = (claims, { forged = false, typ = "at+jwt" } = {}) => {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      iss: url,
      sub: "test-user",
      iat: now,
      exp: now + 300,
      scope: "mcp",
      client_id: "test-client",
      ...claims,
    };
    return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid: KID, typ }).sign(forged ? forger : privateKey);
  };
  const close = async () => {
    http.closeAllConnections();
    await once(http.close(), "close");
  };
  return { url, metadata, mint, close };
}
