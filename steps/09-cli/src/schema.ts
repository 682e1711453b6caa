// A validator for the small part of JSON Schema that this server's inputSchemas use.
// It returns the first problem as a sentence naming the field, because a model reads it and retries.

//#region types
export interface JsonSchema {
  type?: "object" | "string" | "number" | "integer" | "boolean";
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
}
//#endregion

//#region validate
const article = (type: string) => (/^[aeiou]/.test(type) ? "an" : "a");

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function hasType(value: unknown, type: NonNullable<JsonSchema["type"]>): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "object") return typeOf(value) === "object";
  return typeof value === type;
}

/** Returns undefined when `value` fits `schema`, else what is wrong, e.g. `"b" must be a number, got string`. */
export function validate(schema: JsonSchema, value: unknown, field = "arguments"): string | undefined {
  if (schema.type !== undefined && !hasType(value, schema.type)) {
    return `${field} must be ${article(schema.type)} ${schema.type}, got ${typeOf(value)}`;
  }
  if (schema.type === "object") return validateObject(schema, value as Record<string, unknown>);
  return undefined;
}

// Own properties only, on both sides: an argument named "constructor" must not find Object.prototype.constructor.
function validateObject(schema: JsonSchema, value: Record<string, unknown>): string | undefined {
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (!Object.hasOwn(value, name)) return `"${name}" is required`;
  }
  for (const [name, item] of Object.entries(value)) {
    if (Object.hasOwn(properties, name)) {
      const problem = validate(properties[name]!, item, `"${name}"`);
      if (problem !== undefined) return problem;
    } else if (schema.additionalProperties === false) {
      return `"${name}" is not an expected field (expected: ${Object.keys(properties).join(", ")})`;
    }
  }
  return undefined;
}
//#endregion
