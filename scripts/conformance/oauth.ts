// The conformance client's OAuthClientProvider: everything kept in memory, and a "browser" that follows the
// authorization URL itself. The suite's authorization servers approve at once and redirect to the callback with the
// code, so no person and no listening callback server are needed: the Location header is the callback.
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthClientInformationContext as Context,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";

// The suite's fixed client ID metadata document URL: its authorization servers that support CIMD accept it as a
// client_id.
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const REDIRECT_URL = "http://localhost:3000/callback";

export class ScriptedOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl = REDIRECT_URL;
  readonly clientMetadataUrl = CLIENT_METADATA_URL;
  // Credentials are kept per authorization server (its issuer; "" when none is named): when the resource moves to
  // another server, the client registers there anew instead of showing it another server's client_id (SEP-2352).
  #clients = new Map<string, StoredOAuthClientInformation>();
  #tokens = new Map<string, StoredOAuthTokens>();
  #latestTokens: StoredOAuthTokens | undefined;
  #verifier = "";
  #discovery: OAuthDiscoveryState | undefined;
  #callback: URLSearchParams | undefined;

  /** `registered`: pre-registered credentials, when the scenario hands some over (no registration then). */
  constructor(
    private readonly fetchFn: typeof fetch,
    registered?: { client_id: string; client_secret?: string },
  ) {
    if (registered) this.#clients.set("", { ...registered, redirect_uris: [REDIRECT_URL] });
  }

  get clientMetadata(): OAuthClientMetadata {
    // A command-line client is a native application (SEP-837).
    return {
      client_name: "learn-mcp-conformance-client",
      redirect_uris: [REDIRECT_URL],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      application_type: "native",
    };
  }

  clientInformation = (ctx?: Context) => this.#clients.get(ctx?.issuer ?? "") ?? this.#clients.get("");
  saveClientInformation = (client: StoredOAuthClientInformation, ctx?: Context) =>
    void this.#clients.set(ctx?.issuer ?? "", client);
  // Without a ctx the transport asks for the bearer token to send: the latest one.
  tokens = (ctx?: Context) => (ctx === undefined ? this.#latestTokens : this.#tokens.get(ctx.issuer ?? ""));
  saveTokens = (tokens: StoredOAuthTokens, ctx?: Context) => {
    this.#tokens.set(ctx?.issuer ?? "", tokens);
    this.#latestTokens = tokens;
  };
  saveCodeVerifier = (verifier: string) => void (this.#verifier = verifier);
  codeVerifier = () => this.#verifier;
  // Which authorization server the redirect went to: the code is redeemed only there (SEP-2352). Kept from the redirect
  // to the callback only: the next authorization discovers afresh, in case the resource has moved to another server.
  saveDiscoveryState = (state: OAuthDiscoveryState) => void (this.#discovery = state);
  discoveryState = () => this.#discovery;

  /** Follows the authorization URL one hop, as a browser would, and keeps the query of the callback it redirects to. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const response = await this.fetchFn(authorizationUrl, { redirect: "manual" });
    const location = response.headers.get("location");
    if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
    this.#callback = new URL(location, authorizationUrl).searchParams;
  }

  /**
   * The callback's parameters (code, state, iss) once, for transport.finishAuth(); undefined if no redirect happened.
   */
  takeCallback(): URLSearchParams | undefined {
    const callback = this.#callback;
    this.#callback = undefined;
    return callback;
  }

  /** After transport.finishAuth(): this authorization is over. */
  finished(): void {
    this.#discovery = undefined;
  }
}
