import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validationError } from "@/lib/api/route";
import { en } from "@/lib/i18n/en";
import { pl } from "@/lib/i18n/pl";
import { fieldLabel, issueMessage, issueMessages, type FieldLabels, type IssueLike } from "@/lib/i18n/validation";
import { ContactSchema } from "@/lib/schema/requests/content";
import { createSchemaRequest } from "@/lib/schema/requests/schemas";

const contactLabels = { en: { name: "Name", email: "E-mail", message: "Message" }, pl: { name: "Imię i nazwisko", email: "E-mail", message: "Wiadomość" } };
const schemaLabels = {
  en: { name: "Schema name", fields: "Fields", "fields.*": "Field {n}", "fields.*.name": "Name", "fields.*.type": "Type", "fields.*.enum_values": "Values" },
  pl: { name: "Nazwa schematu", fields: "Pola", "fields.*": "Pole {n}", "fields.*.name": "Nazwa", "fields.*.type": "Typ", "fields.*.enum_values": "Wartości" },
} satisfies Record<"en" | "pl", FieldLabels>;

const issuesOf = (schema: z.ZodType, value: unknown): IssueLike[] => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error("expected the value to be refused");
  return r.error.issues;
};

describe("validation messages: translated, naming the field by its label", () => {
  const empty = { name: "", email: "", subject: "", message: "", website: "" };

  it("an empty contact form reads as labelled 'required' messages in English and Polish", () => {
    const issues = issuesOf(ContactSchema, empty);
    expect([...issueMessages("en", en.validation, issues, contactLabels.en, empty).values()]).toEqual([
      "Name: required",
      "E-mail: required",
      "Message: required",
    ]);
    expect([...issueMessages("pl", pl.validation, issues, contactLabels.pl, empty).values()]).toEqual([
      "Imię i nazwisko: pole wymagane",
      "E-mail: pole wymagane",
      "Wiadomość: pole wymagane",
    ]);
  });

  it("too short, too long and a bad e-mail carry the limit, with Polish plural forms", () => {
    const value = { name: "A", email: "not-an-address", message: "short" };
    const issues = issuesOf(ContactSchema, value);
    const enMsgs = [...issueMessages("en", en.validation, issues, contactLabels.en, value).values()];
    expect(enMsgs).toEqual(["Name: must have at least 2 characters", "E-mail: enter a valid e-mail address", "Message: must have at least 10 characters"]);
    const plMsgs = [...issueMessages("pl", pl.validation, issues, contactLabels.pl, value).values()];
    expect(plMsgs).toEqual(["Imię i nazwisko: musi mieć co najmniej 2 znaki", "E-mail: podaj poprawny adres e-mail", "Wiadomość: musi mieć co najmniej 10 znaków"]);
    const long = issuesOf(z.object({ name: z.string().max(5) }), { name: "abcdefgh" });
    expect(issueMessage("pl", pl.validation, long[0]!, { name: "Nazwa" })).toBe("Nazwa: może mieć najwyżej 5 znaków");
    expect(issueMessage("en", en.validation, long[0]!, { name: "Name" })).toBe("Name: may have at most 5 characters");
  });

  it("nested array paths name the item and the field: 'Field 1 – Name', never fields.0.name", () => {
    const body = { name: "S", fields: [{ name: "", type: "string" }, { name: "Case Number", type: "string" }, { name: "a", type: "enum" }] };
    const issues = issuesOf(createSchemaRequest(), body);
    const enMsgs = issueMessages("en", en.validation, issues, schemaLabels.en, body);
    expect(enMsgs.get("fields.0.name")).toBe("Field 1 – Name: required");
    expect(enMsgs.get("fields.1.name")).toMatch(/^Field 2 – Name: use lower-case letters, digits and single underscores/);
    expect(enMsgs.get("fields.2.enum_values")).toBe("Field 3 – Values: a choice field needs its list of values");
    const plMsgs = issueMessages("pl", pl.validation, issues, schemaLabels.pl, body);
    expect(plMsgs.get("fields.0.name")).toBe("Pole 1 – Nazwa: pole wymagane");
    expect(plMsgs.get("fields.1.name")).toMatch(/^Pole 2 – Nazwa: użyj małych liter/);
    expect(plMsgs.get("fields.2.enum_values")).toBe("Pole 3 – Wartości: pole wyboru wymaga listy wartości");
    for (const text of [...enMsgs.values(), ...plMsgs.values()]) expect(text).not.toMatch(/fields\.\d|snake_case|enum_values/);
  });

  it("a duplicate name and an empty field list are worded from the check's own key", () => {
    const dup = issuesOf(createSchemaRequest(), { name: "S", fields: [{ name: "a", type: "string" }, { name: "a", type: "integer" }] });
    expect(issueMessage("pl", pl.validation, dup[0]!, schemaLabels.pl)).toBe("Pole 2 – Nazwa: inne pole ma już nazwę „a”");
    const none = issuesOf(createSchemaRequest(), { name: "S", fields: [] });
    expect(issueMessage("en", en.validation, none[0]!, schemaLabels.en)).toBe("Fields: needs at least 1 item");
    expect(issueMessage("pl", pl.validation, none[0]!, schemaLabels.pl)).toBe("Pola: musi mieć co najmniej 1 pozycję");
  });

  it("numbers, choices and unlabelled paths", () => {
    const s = z.object({ k: z.number().int().min(2).max(50), mode: z.enum(["a", "b"]), extra: z.string() });
    const issues = issuesOf(s, { k: 1.5, mode: "c", extra: 3 });
    const m = issueMessages("pl", pl.validation, issues, { k: "Liczba tematów", mode: "Tryb" });
    expect(m.get("k")).toBe("Liczba tematów: musi być liczbą całkowitą");
    expect(m.get("mode")).toBe("Tryb: wybierz jedną z wartości: a, b");
    expect(m.get("extra")).toBe("To pole: musi być tekstem");
    const small = issuesOf(z.object({ k: z.number().min(2) }), { k: 1 });
    expect(issueMessage("en", en.validation, small[0]!, { k: "Topics" })).toBe("Topics: must be at least 2");
    expect(fieldLabel(en.validation, ["fields", 3], schemaLabels.en)).toBe("Field 4");
  });

  it("the API's 422 carries what the client needs to word it the same way (path, code, limits, message key)", () => {
    const body = { name: "S", fields: [{ name: "", type: "string" }, { name: "a", type: "string" }, { name: "a", type: "string" }] };
    const r = createSchemaRequest().safeParse(body);
    if (r.success) throw new Error("expected a failure");
    const e = validationError(r.error, "body");
    const fields = (e.extra as { fields: (IssueLike & { field: string })[] }).fields;
    expect(fields[0]).toMatchObject({ field: "fields.0.name", path: ["fields", 0, "name"], code: "too_small", minimum: 1, origin: "string" });
    const dup = fields.find((f) => f.field === "fields.2.name");
    expect(dup).toMatchObject({ code: "custom", params: { messageKey: "duplicateName", value: "a" } });
    // Round trip through JSON, as the browser receives it.
    const received = JSON.parse(JSON.stringify(fields)) as IssueLike[];
    expect(issueMessages("pl", pl.validation, received, schemaLabels.pl).get("fields.2.name")).toBe("Pole 3 – Nazwa: inne pole ma już nazwę „a”");
  });
});
