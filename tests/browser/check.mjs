// The admin page in headless Chromium (see run.sh for what is checked and how it is started).
// Every step asserts what a person would see or what an MCP client gets; any failure exits 1.
import { createRequire } from "node:module";
import assert from "node:assert/strict";
import path from "node:path";

const require = createRequire(path.join(process.env.MODULES, "index.js"));
const { chromium } = require("playwright-core");

const base = process.env.BASE;
const endpoint = `${base}/rest/wikis/main/aiLLM/mcp`;
const shots = process.env.SCREENSHOTS;

async function toolNames(token) {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  return { status: response.status, names: response.ok ? (await response.json()).result.tools.map((t) => t.name) : [] };
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const context = await browser.newContext();
  const page = await context.newPage();

  // A non-admin token is refused at sign-in.
  await page.goto(`${base}/admin`);
  assert.match(page.url(), /\/admin\/signin$/);
  await page.getByLabel("API token").fill(process.env.USER_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await assert.doesNotReject(page.getByRole("alert").filter({ hasText: "does not administer" }).waitFor());
  await shot(page, "signin-refused");

  // The administrator signs in and sees the wikis.
  await page.getByLabel("API token").fill(process.env.ADMIN_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Wikis" }).waitFor();
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === "wiki_mcp_admin");
  assert.ok(session, "a session cookie");
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, "Strict");
  await shot(page, "wikis");

  // Turn write_document on for the main wiki; an MCP client then lists it.
  assert.ok(!(await toolNames(process.env.ADMIN_TOKEN)).names.includes("write_document"));
  await page.getByRole("link", { name: "main", exact: true }).click();
  await page.getByRole("heading", { name: /Wiki main/ }).waitFor();
  await shot(page, "wiki-main");
  await page.getByRole("checkbox", { name: /write_document/ }).check();
  await page.getByRole("button", { name: "Save configuration" }).click();
  await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
  assert.ok(await page.getByRole("checkbox", { name: /write_document/ }).isChecked());
  await shot(page, "wiki-main-saved");
  assert.ok((await toolNames(process.env.ADMIN_TOKEN)).names.includes("write_document"), "listed over MCP");

  // The same form posted without its CSRF token (as a forged page would) is refused, and
  // nothing changes.
  await page.locator('form[action="/admin/wikis/main"] input[name="csrf"]').evaluate((input) => input.remove());
  await page.getByRole("checkbox", { name: /delete_document/ }).check();
  const [forged] = await Promise.all([
    page.waitForResponse((response) => response.request().method() === "POST"),
    page.getByRole("button", { name: "Save configuration" }).click(),
  ]);
  assert.equal(forged.status(), 403, "a post without the CSRF token is refused");
  await page.getByRole("heading", { name: "Form refused" }).waitFor();
  await shot(page, "forged-post-refused");
  assert.ok(!(await toolNames(process.env.ADMIN_TOKEN)).names.includes("delete_document"), "nothing saved");

  // Create a token for alice, use it, revoke it, see it refused.
  await page.goto(`${base}/admin/tokens`);
  await page.getByLabel("User").fill("alice");
  await page.getByLabel("Label").fill("browser check");
  await page.getByRole("button", { name: "Create token" }).click();
  const created = (await page.locator("#new-token").textContent()).trim();
  assert.match(created, /^wmcp_/);
  await shot(page, "token-created");
  assert.equal((await toolNames(created)).status, 200);
  const row = page.getByRole("row").filter({ hasText: "browser check" });
  await row.getByRole("button", { name: /Revoke/ }).click();
  await page.getByRole("status").filter({ hasText: "revoked" }).waitFor();
  await shot(page, "tokens");
  assert.equal((await toolNames(created)).status, 401, "a revoked token is refused");

  await page.getByRole("link", { name: "Audit" }).click();
  await page.getByRole("heading", { name: "Recent tool calls" }).waitFor();
  await shot(page, "audit");

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await page.goto(`${base}/admin`);
  assert.match(page.url(), /\/admin\/signin$/, "signed out");

  // Sign in at the identity provider (the test issuer run.sh started): a user who
  // administers nothing is refused with a page saying so; the farm administrator gets the
  // same session as with a token, and lands on the wikis without another click.
  await shot(page, "signin");
  await page.getByRole("link", { name: /^Sign in with / }).click();
  await page.getByLabel("User name").fill("alice");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("heading", { name: "Not an administrator" }).waitFor();
  assert.match(await page.getByRole("alert").textContent(), /alice does not administer/);
  await shot(page, "oidc-refused");
  await page.getByRole("link", { name: "Back to sign-in" }).click();
  await page.getByRole("link", { name: /^Sign in with / }).click();
  await page.getByLabel("User name").fill("admin");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("heading", { name: "Wikis" }).waitFor();
  assert.match(page.url(), /\/admin$/);
  assert.match(await page.locator("header .who").textContent(), /Signed in as admin/);
  await shot(page, "oidc-signed-in");
  console.log(`browser check passed; screenshots in ${shots}`);
} finally {
  await browser.close();
}
