// The --wire tap's framing and wording, without a demo: lines split anywhere, one split inside a character,
// and a line without end that the tap must count instead of keeping.
import { describe, expect, it } from "vitest";
import { describeLine, LineFramer, maskText, MAX_LINE_BYTES, shorten } from "./wire-format.mjs";

describe("LineFramer", () => {
  it("joins a line split across chunks, inside a UTF-8 character too", () => {
    const framer = new LineFramer();
    const bytes = Buffer.from('{"text":"é"}\nnext\r\n');
    const cut = bytes.indexOf(Buffer.from("é")) + 1; // between the two bytes of é
    expect(framer.push(bytes.subarray(0, cut))).toEqual([]);
    expect(framer.push(bytes.subarray(cut))).toEqual(['{"text":"é"}', "next"]);
    expect(framer.end()).toBeUndefined();
  });

  it("gives a last line without a newline at the end of the stream", () => {
    const framer = new LineFramer();
    framer.push(Buffer.from("partial"));
    expect(framer.end()).toBe("partial");
  });

  it("keeps at most the limit of one line, counts the rest, and frames the next line as usual", () => {
    const framer = new LineFramer(10);
    expect(framer.push(Buffer.from("0123456789"))).toEqual([]); // exactly the limit is kept
    expect(framer.push(Buffer.from("\n"))).toEqual(["0123456789"]);
    expect(framer.push(Buffer.from("0123456789"))).toEqual([]);
    expect(framer.push(Buffer.from("abc"))).toEqual([]);
    expect(framer.push(Buffer.from("de\nok\n"))).toEqual([{ bytes: 15, limit: 10 }, "ok"]);
    framer.push(Buffer.from("x".repeat(11)));
    expect(framer.end()).toEqual({ bytes: 11, limit: 10 });
  });

  it("holds no more than 16 MiB of a flood without newlines", () => {
    const framer = new LineFramer();
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 20; i++) framer.push(chunk);
    expect(framer.end()).toEqual({ bytes: 20 * 1024 * 1024, limit: MAX_LINE_BYTES });
  });
});

describe("describeLine", () => {
  it("says how long a line it did not keep was", () => {
    expect(describeLine({ bytes: 20_971_520, limit: MAX_LINE_BYTES })).toBe(
      "(not shown) a line of 20,971,520 bytes, over the 16,777,216 the tap keeps",
    );
  });

  it("marks text that is not JSON-RPC and masks a credential in it", () => {
    expect(describeLine("Authorization: Bearer abc123")).toBe('(not JSON-RPC) "Authorization: Bearer ***"');
  });

  it("masks OAuth's authorization code in a redirect and in a form body, and keeps a JSON-RPC error code", () => {
    expect(maskText("location: http://127.0.0.1:1/callback?code=Zx9_k&state=s1")).toBe(
      "location: http://127.0.0.1:1/callback?code=***&state=s1",
    );
    expect(maskText("grant_type=authorization_code&code=Zx9_k&code_verifier=v")).toBe(
      "grant_type=authorization_code&code=***&code_verifier=***",
    );
    expect(maskText('{"registration_access_token":"r1","error":{"code":-32601}}')).toBe(
      '{"registration_access_token":"***","error":{"code":-32601}}',
    );
  });

  it("masks an Authorization or Proxy-Authorization value whatever its scheme, keeping a scheme word", () => {
    expect(maskText("authorization: token ghp_0123456789")).toBe("authorization: token ***");
    expect(maskText("Authorization: DPoP eyJhbGciOi.eyJzdWIi.c2ln")).toBe("Authorization: DPoP ***");
    expect(maskText("proxy-authorization: Basic dXNlcjpwYXNz")).toBe("proxy-authorization: Basic ***");
    expect(maskText("authorization: tok_raw and more")).toBe("authorization: ***"); // no scheme: the whole value
  });

  it("masks the credential query parameters of a URL, and leaves the others", () => {
    const url =
      "https://h/mcp?token=t1&key=k1&access_token=a1&apikey=p1&api_key=p2&client_secret=c1&code=o1&state=s1&page=2";
    expect(maskText(url)).toBe(
      "https://h/mcp?token=***&key=***&access_token=***&apikey=***&api_key=***&client_secret=***&code=***&state=s1&page=2",
    );
    expect(maskText("https://h/cb#access_token=a1&TOKEN=t2")).toBe("https://h/cb#access_token=***&TOKEN=***");
  });

  it("masks credentials inside JSON string values at any depth, before a long string is cut", () => {
    // the secret straddles the cut at 80
    const text = `${"x".repeat(60)} password=hunter2secretvalue and more text past the cut`;
    const message = {
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [
          { type: "text", text: '{"access_token":"a1","nested":{"password":"p1"}}' },
          { type: "text", text },
        ],
      },
    };
    expect(describeLine(JSON.stringify(message))).toBe(
      JSON.stringify({
        ...message,
        result: {
          content: [
            { type: "text", text: '{"access_token":"***","nested":{"password":"***"}}' },
            { type: "text", text: `${"x".repeat(60)} password=*** and mo…(+20 chars)` },
          ],
        },
      }),
    );
    expect(shorten({ deep: [{ headers: { "Proxy-Authorization": "Basic x", apikey: "k" } }] })).toEqual({
      deep: [{ headers: { "Proxy-Authorization": "***", apikey: "***" } }],
    });
  });
});
