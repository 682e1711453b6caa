// The HTTP half of --wire: wraps fetch so that each exchange is reported as it happens: the request line and the
// headers that matter, a JSON body, then the status, and the response body as it is read, a server-sent event at a
// time. Credentials are masked; the response reaches the program byte for byte, read at its own pace.
import { describeLine, LineFramer, MAX_LINE_BYTES, maskAuthorization, maskText, shorten } from "./wire-format.mjs";

// The headers a reader of MCP and model traffic needs; the rest (user agent, lengths, platform details) is noise.
const SHOWN_HEADERS = [
  "content-type",
  "accept",
  "anthropic-version",
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "mcp-session-id",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "last-event-id",
  "www-authenticate",
  "location",
  "retry-after",
];

const decoder = () => new TextDecoder("utf-8", { fatal: false });

function headerList(headers) {
  const shown = (name) =>
    name.endsWith("authorization")
      ? `${name}: ${maskAuthorization(headers.get(name))}`
      : maskText(`${name}: ${headers.get(name)}`);
  return SHOWN_HEADERS.filter((name) => headers.has(name))
    .map(shown)
    .join("  ");
}

/** A whole body as a wire line: JSON compact and shortened, anything else quoted. */
function describeBody(text) {
  try {
    return JSON.stringify(shorten(JSON.parse(text)));
  } catch {
    return `(not JSON) ${JSON.stringify(shorten(maskText(text)))}`;
  }
}

function requestBody(body) {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return describeBody(body);
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return describeBody(decoder().decode(body));
  if (body instanceof URLSearchParams) return `(form) ${JSON.stringify(maskText(body.toString()))}`;
  return `(a ${body.constructor?.name ?? typeof body} body, not shown)`;
}

/** One server-sent event (the lines between two blank lines) as `event: name data`. */
function describeEvent(lines) {
  const fields = { event: "message", data: [] };
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon === 0) continue; // a comment
    const [name, value] = colon === -1 ? [line, ""] : [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, "")];
    if (name === "data") fields.data.push(value);
    else if (name === "event" || name === "id") fields[name] = value;
  }
  if (fields.data.length === 0 && fields.id === undefined) return undefined; // a keep-alive
  const id = fields.id === undefined ? "" : `id: ${fields.id}  `;
  return `event: ${fields.event}  ${id}${describeBody(fields.data.join("\n"))}`;
}

/** Reports the response body as it passes: event by event for SSE, whole otherwise (up to the tap's line limit). */
function bodyWatcher(contentType, say) {
  const lines = new LineFramer();
  let event = [];
  const chunks = [];
  let size = 0;
  const sse = contentType.startsWith("text/event-stream");
  const onLine = (line) => {
    if (typeof line !== "string") return say(describeLine(line));
    if (line !== "") return event.push(line);
    const described = describeEvent(event);
    event = [];
    if (described) say(described);
  };
  return {
    push(bytes) {
      if (sse) return lines.push(Buffer.from(bytes)).forEach(onLine);
      size += bytes.length;
      if (size <= MAX_LINE_BYTES) chunks.push(bytes);
    },
    end() {
      if (sse) {
        const last = lines.end();
        if (last !== undefined) onLine(last);
        return event.length > 0 && onLine("");
      }
      if (size > MAX_LINE_BYTES) return say(describeLine({ bytes: size, limit: MAX_LINE_BYTES }));
      if (size > 0) say(describeBody(Buffer.concat(chunks).toString("utf8")));
    },
  };
}

/** Returns fetch that reports through `report(direction, label, text)`; `label` names the process. */
export function tapFetch(fetch, report, label = "") {
  let exchanges = 0;
  return async function tappedFetch(input, init = {}) {
    const name = `${label ? `${label}/` : ""}http ${++exchanges}`;
    const say = (direction) => (text) => {
      try {
        report(direction, name, text);
      } catch {
        // Observing must never change what the program does.
      }
    };
    const request = input instanceof Request ? input : undefined;
    const method = init.method ?? request?.method ?? "GET";
    const url = maskText(String(request?.url ?? input));
    const sent = say("->");
    sent(`${method} ${url}  ${headerList(new Headers(init.headers ?? request?.headers))}`.trimEnd());
    const body = requestBody(init.body);
    if (body !== undefined) sent(body);
    else if (request?.body) sent("(a streamed body, not shown)");

    const response = await fetch(input, init);
    const received = say("<-");
    received(`${response.status} ${response.statusText}  ${headerList(response.headers)}`.trimEnd());
    if (response.body === null) return response;
    const watcher = bodyWatcher(response.headers.get("content-type") ?? "", received);
    const watched = response.body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          watcher.push(chunk);
          controller.enqueue(chunk);
        },
        flush() {
          watcher.end();
        },
      }),
    );
    const copy = new Response(watched, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // A Response built by hand has no url or redirected flag: keep the original's, which clients may read.
    Object.defineProperties(copy, { url: { value: response.url }, redirected: { value: response.redirected } });
    return copy;
  };
}
