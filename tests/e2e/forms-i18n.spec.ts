import { expect, test } from "playwright/test";

// Validation messages are the interface's own: translated, and naming each field by its label (never zod's raw
// English, never a request path). The contact form is the one a guest meets first.
test("the contact form sent empty in Polish names each field in Polish", async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: "locale", value: "pl", url: baseURL ?? "http://127.0.0.1:3000" }]);
  await page.goto("/contact");
  const send = page.getByRole("button", { name: "Wyślij wiadomość" });
  await expect(send).toBeEnabled();
  await send.click();
  await expect(page.locator("#contact-name-error")).toHaveText("Imię i nazwisko: pole wymagane");
  await expect(page.locator("#contact-email-error")).toHaveText("E-mail: pole wymagane");
  await expect(page.locator("#contact-message-error")).toHaveText("Wiadomość: pole wymagane");
  await expect(page.getByLabel("Imię i nazwisko")).toHaveAttribute("aria-invalid", "true");

  // Too short and malformed: the limit is stated with the Polish plural form.
  await page.getByLabel("Imię i nazwisko").fill("A");
  await page.getByLabel("E-mail").fill("to-nie-adres");
  await page.getByLabel("Wiadomość").fill("Krótko");
  await send.click();
  await expect(page.locator("#contact-name-error")).toHaveText("Imię i nazwisko: musi mieć co najmniej 2 znaki");
  await expect(page.locator("#contact-email-error")).toHaveText("E-mail: podaj poprawny adres e-mail");
  await expect(page.locator("#contact-message-error")).toHaveText("Wiadomość: musi mieć co najmniej 10 znaków");
  await expect(page.getByText(/Too small|Invalid email|expected string/)).toHaveCount(0);
});
