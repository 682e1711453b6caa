// Text that a server or a model wrote, made safe to print: escape sequences and control characters are removed, so a
// server name, a stderr line or a tool name cannot move the cursor, retitle the terminal or hide what came before.
// A CSI (ESC [ or 0x9b, parameters, a final byte), an OSC (ESC ] or 0x9d, up to BEL or ESC \), then any other C0 or
// C1 control character, a lone ESC included; \n and \t stay.
const UNPRINTABLE =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` without the control characters and escape sequences a terminal would act on. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, "");
}
