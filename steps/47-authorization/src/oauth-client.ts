// The client's side of OAuth for a program without a browser: the SDK runs the flow, this provider keeps what it needs.
// Its one departure from a browser flow: it follows the authorization server's redirects itself and keeps the code.
import { randomUUID } from "node:crypto";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { followToRedirectUri } from "./redirects.ts";

//#region provider
export class HeadlessOAuthClient implements OAuthClientProvider {
  // A loopback redirect, as a native app registers one (RFC 8252). Nothing listens there: the code is read from the
  // Location.
  readonly redirectUrl = "http://127.0.0.1/callback";
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "learn-mcp demo client",
    redirect_uris: [this.redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none", // a public client: a program on the user's machine cannot keep a secret
  };
  /** The authorization response (code, state, iss) once the server has redirected back; finishAuth takes it. */
  callback?: URLSearchParams;
  #state = "";
  #client?: StoredOAuthClientInformation;
  #tokens?: StoredOAuthTokens;
  #codeVerifier = "";
  #discovery?: OAuthDiscoveryState;

  /** `onTokens` hears of every token set the SDK saves: the first, and each refresh. */
  constructor(private readonly onTokens: (tokens: StoredOAuthTokens) => void = () => {}) {}

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const callback = await followToRedirectUri(authorizationUrl, this.redirectUrl);
    // The SDK leaves `state` to the application: a response to a request this client did not make is refused.
    if (callback.get("state") !== this.#state) throw new Error("the authorization response carries another state");
    this.callback = callback;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.#tokens = tokens;
    this.onTokens(tokens);
  }

  // The rest only keeps what the SDK hands over, in memory: a real client stores the tokens and its registration.
  state = () => (this.#state = randomUUID()); // a new one for each authorization request
  clientInformation = () => this.#client;
  saveClientInformation = (client: StoredOAuthClientInformation) => void (this.#client = client);
  tokens = () => this.#tokens;
  codeVerifier = () => this.#codeVerifier;
  saveCodeVerifier = (codeVerifier: string) => void (this.#codeVerifier = codeVerifier);
  discoveryState = () => this.#discovery;
  saveDiscoveryState = (state: OAuthDiscoveryState) => void (this.#discovery = state);
}
//#endregion
