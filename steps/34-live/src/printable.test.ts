// printable(): what a server or a model wrote loses every escape sequence and control character, and keeps its text.
import { expect, test } from "vitest";
import { printable } from "./printable.ts";

test.each([
  ["a colour (CSI)", "\u001b[31mred\u001b[0m text", "red text"],
  ["a cleared screen and a hidden cursor", "\u001b[2J\u001b[?25lafter", "after"],
  ["a window title (OSC ended by BEL)", "\u001b]0;pwned\u0007title", "title"],
  ["a hyperlink (OSC ended by ESC \\)", "\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\", "link"],
  ["the one-byte CSI and OSC of C1", "\u009b2Jx\u009d0;t\u009cy", "xy"],
  ["a carriage return that would overwrite the line", "fake\rreal", "fakereal"],
  ["a bell, a backspace, DEL and a lone ESC", "a\u0007b\u0008c\u007fd\u001b", "abcd"],
  ["other C1 characters", "a\u0085b\u009fc", "abc"],
  ["newlines and tabs, which stay", "one\ttwo\nthree", "one\ttwo\nthree"],
  ["text that is not ASCII, which stays", "héllo — 日本", "héllo — 日本"],
])("%s", (_, text, expected) => {
  expect(printable(text)).toBe(expected);
});
