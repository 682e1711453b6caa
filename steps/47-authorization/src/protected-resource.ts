// The MCP endpoint as an OAuth 2.1 protected resource: it answers only a request with a valid token for itself. The SDK
// reads the header, checks the scope and writes each refusal; jose checks the token: signature, issuer, audience,
// expiry.
import { createRemoteJWKSet, errors, jwtVerify } from "jose";
import {
  getOAuthProtectedResourceMetadataUrl,
  oauthMetadataResponse,
  OAuthError,
  OAuthErrorCode,
  requireBearerAuth,
  type McpHttpHandler,
  type OAuthMetadata,
  type OAuthTokenVerifier,
} from "@modelcontextprotocol/server";

/** The one scope this server asks for: a token without it is refused with 403. */
export const MCP_SCOPE = "mcp";
/** How far ahead of this machine's clock the issuer's may run: a token issued later than that is refused. */
export const CLOCK_TOLERANCE_SECONDS = 60;

//#region discover
/** The authorization server's RFC 8414 metadata, read once at start: it names the keys its tokens are signed with. */
export async function discoverIssuer(issuer: string): Promise<OAuthMetadata> {
  const response = await fetch(new URL("/.well-known/oauth-authorization-server", issuer)).catch((error: Error) => {
    throw new Error(`cannot reach ${issuer}: ${(error.cause as { code?: string } | undefined)?.code ?? error.message}`);
  });
  if (!response.ok) throw new Error(`no authorization server metadata at ${issuer} (HTTP ${response.status})`);
  const metadata = (await response.json()) as OAuthMetadata;
  // RFC 8414 §3.3: a document that names another issuer must not be used.
  if (metadata.issuer !== issuer || !metadata.jwks_uri)
    throw new Error(`the metadata at ${issuer} names issuer ${metadata.issuer}`);
  return metadata;
}
//#endregion

//#region verify
/** Verifies a JWT access token (RFC 9068) for `resource`; any failure becomes the 401 invalid_token the SDK writes. */
export function jwtVerifier(issuer: OAuthMetadata, resource: URL): OAuthTokenVerifier {
  // Fetched on first use and cached; fetched again when a token names a key it does not know (the issuer rotated).
  const keys = createRemoteJWKSet(new URL(issuer.jwks_uri!));
  return {
    async verifyAccessToken(token) {
      try {
        const { payload } = await jwtVerify(token, keys, {
          issuer: issuer.issuer,
          audience: resource.href, // RFC 8707: a token the issuer minted for another server is refused here
          typ: "at+jwt", // an ID token signed by the same keys is not an access token
          requiredClaims: ["exp", "sub"], // RFC 9068 §2.2: sub names the user, whom a session is bound to
        });
        // jose compares iat with the clock only when a maximum age is set: a token "issued" in the future is refused
        // here.
        if (payload.iat !== undefined && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) {
          throw new OAuthError(OAuthErrorCode.InvalidToken, "iat claim timestamp check failed (issued in the future)");
        }
        const scopes = typeof payload.scope === "string" ? payload.scope.split(" ") : [];
        return {
          token,
          clientId: String(payload.client_id),
          scopes,
          expiresAt: payload.exp,
          resource,
          extra: { subject: payload.sub },
        };
      } catch (error) {
        // jose says what failed ('"exp" claim timestamp check failed'); a JWKS that cannot be fetched stays a 500.
        if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout))
          throw new OAuthError(OAuthErrorCode.InvalidToken, error.message.replaceAll('"', ""));
        throw error;
      }
    },
  };
}
//#endregion

//#region protect
/** A fetch handler in front of `mcp`: the metadata documents for anyone, the MCP endpoint for a valid token only. */
export function protectedResource(
  mcp: Pick<McpHttpHandler, "fetch">,
  issuer: OAuthMetadata,
  resource: URL,
): (request: Request) => Promise<Response> {
  // RFC 9728: what a client needs to find the authorization server, at a path derived from the resource's own.
  const metadata = {
    oauthMetadata: issuer,
    resourceServerUrl: resource,
    scopesSupported: [MCP_SCOPE],
    resourceName: "learn-mcp tutorial server",
  };
  const gate = requireBearerAuth({
    verifier: jwtVerifier(issuer, resource),
    requiredScopes: [MCP_SCOPE],
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource), // named in every 401 and 403
  });
  return async (request) => {
    const document = oauthMetadataResponse(request, metadata);
    if (document) return document;
    if (new URL(request.url).pathname !== resource.pathname) return new Response(null, { status: 404 });
    const authInfo = await gate(request);
    return authInfo instanceof Response ? authInfo : mcp.fetch(request, { authInfo });
  };
}
//#endregion
