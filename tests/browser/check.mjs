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

// A JSON-RPC request to the main wiki's MCP endpoint with `token`.
function rpc(token, method, params) {
  return fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
}

async function toolNames(token) {
  const response = await rpc(token, "tools/list");
  return { status: response.status, names: response.ok ? (await response.json()).result.tools.map((t) => t.name) : [] };
}

async function callTool(token, name, args) {
  const response = await rpc(token, "tools/call", { name, arguments: args });
  assert.equal(response.status, 200, `tools/call ${name}`);
}

// Opens `url` until `locator` (of the page) shows `count` elements, for what another moment
// makes true (the audit record is written a fraction of a second after a call); at most 10 s.
async function gotoUntil(page, url, locator, count) {
  for (let tries = 0; ; tries++) {
    await page.goto(url);
    const seen = await locator().count();
    if (seen === count || tries >= 50) {
      assert.equal(seen, count, `${url}: ${count} rows`);
      return;
    }
    await page.waitForTimeout(200);
  }
}

// The document is no wider than the window: nothing but a table's own box scrolls sideways.
async function assertNoSidewaysScroll(page, name) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  assert.ok(scroll <= inner, `${name}: the document is ${scroll}px wide in a ${inner}px window`);
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

  // Accounts: create bob, put him in a group, give the group a right and see it decide bob's
  // effective rights, then undo it all. The farm's last administrator cannot be deleted, and
  // the audit view names who made each change.
  await page.getByRole("link", { name: "Users" }).click();
  await page.getByRole("heading", { name: "Users", exact: true }).waitFor();
  await page.getByLabel("User name", { exact: true }).fill("bob");
  await page.getByLabel("Display name (optional)").fill("Bob Browser");
  await page.getByRole("button", { name: "Create user" }).click();
  await page.getByRole("status").filter({ hasText: "Created" }).waitFor();
  await page.getByRole("cell", { name: /Bob Browser/ }).waitFor();
  await shot(page, "user-created");
  await page.getByLabel("User name, typed to confirm").fill("admin");
  await page.getByRole("button", { name: "Delete user" }).click();
  await page.getByRole("alert").filter({ hasText: "without an administrator" }).waitFor();
  await shot(page, "user-delete-refused");

  await page.getByRole("link", { name: "Groups" }).click();
  await page.getByRole("heading", { name: "Groups", exact: true }).waitFor();
  await page.getByLabel("Group name", { exact: true }).fill("browsers");
  await page.getByRole("button", { name: "Create group" }).click();
  await page.getByRole("status").filter({ hasText: "Created" }).waitFor();
  await page.getByLabel("Group", { exact: true }).fill("browsers");
  await page.getByLabel("Member name").fill("bob");
  await page.getByRole("button", { name: "Add member" }).click();
  await page.getByRole("status").filter({ hasText: "Added" }).waitFor();
  await page.getByRole("button", { name: "Remove bob from browsers" }).waitFor();
  await shot(page, "groups");

  await page.getByRole("link", { name: "Rights" }).click();
  await page.getByRole("heading", { name: "Rights", exact: true }).waitFor();
  await page.getByLabel("Right", { exact: true }).selectOption("edit");
  await page.getByRole("radio", { name: "a group" }).check();
  await page.getByLabel("User or group name").fill("browsers");
  await page.locator("#rule-space").fill("Sandbox");
  await page.getByRole("button", { name: "Save rule" }).click();
  await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
  await page.getByRole("row").filter({ hasText: "group browsers" }).waitFor();
  await page.locator("#who").fill("bob");
  await page.locator("#ask-page").fill("Sandbox.WebHome");
  await page.getByRole("button", { name: "Show rights" }).click();
  await page.getByRole("cell", { name: "allow edit to group browsers on space main:Sandbox" }).waitFor();
  await shot(page, "rights");
  await page.getByRole("button", { name: "Remove the edit rule of group browsers" }).click();
  await page.getByRole("status").filter({ hasText: "Removed" }).waitFor();
  assert.equal(await page.getByRole("row").filter({ hasText: "group browsers" }).count(), 0, "the rule is gone");

  await page.getByRole("link", { name: "Users" }).click();
  await page.getByLabel("User name, typed to confirm").fill("bob");
  await page.getByRole("button", { name: "Delete user" }).click();
  await page.getByRole("status").filter({ hasText: "Deleted" }).waitFor();
  await page.goto(`${base}/admin/audit?tool=user+delete`);
  const deletes = page.getByRole("row").filter({ has: page.locator("code", { hasText: /^user delete$/ }) });
  assert.equal(await deletes.count(), 2, "the refused and the made deletion");
  assert.equal(await deletes.filter({ hasText: "admin" }).count(), 2, "both by admin");
  await shot(page, "audit-account-changes");

  await page.getByRole("link", { name: "Audit" }).click();
  await page.getByRole("heading", { name: "Recent tool calls" }).waitFor();
  await shot(page, "audit");

  // Page through three calls two at a time; the filter stays on every page.
  for (let i = 0; i < 3; i++) await callTool(process.env.ADMIN_TOKEN, "man", {});
  const manRows = () => page.getByRole("row").filter({ has: page.locator("code", { hasText: /^man$/ }) });
  await gotoUntil(page, `${base}/admin/audit?tool=man&size=2`, manRows, 2);
  assert.equal(await page.getByRole("link", { name: /Newer/ }).count(), 0, "nothing newer");
  await shot(page, "audit-page-1");
  await page.getByRole("link", { name: /Older/ }).first().click();
  await page.getByRole("link", { name: /Newer/ }).first().waitFor();
  assert.equal(await manRows().count(), 1, "the oldest call alone");
  assert.equal(await page.getByRole("link", { name: /Older/ }).count(), 0, "nothing older");
  assert.equal(await page.getByLabel("Tool").inputValue(), "man", "the filter kept");
  await shot(page, "audit-page-2");
  await page.getByRole("link", { name: /Newer/ }).first().click();
  await page.getByRole("link", { name: /Older/ }).first().waitFor();
  assert.equal(await manRows().count(), 2);
  // A window in the future holds no call; the form shows it back.
  await page.getByLabel("From (UTC)").fill("2100-01-01T00:00");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByText("No call matches.").waitFor();
  assert.equal(await page.getByLabel("From (UTC)").inputValue(), "2100-01-01T00:00");
  await shot(page, "audit-future-window");

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  await page.goto(`${base}/admin`);
  assert.match(page.url(), /\/admin\/signin$/, "signed out");

  // On a phone-sized screen every page fits the width (the wide tables scroll in their box).
  const phone = await browser.newContext({
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const small = await phone.newPage();
  await small.goto(`${base}/admin`);
  await assertNoSidewaysScroll(small, "sign-in");
  await shot(small, "phone-signin");
  await small.getByLabel("API token").fill(process.env.ADMIN_TOKEN);
  await small.getByRole("button", { name: "Sign in" }).click();
  await small.getByRole("heading", { name: "Wikis" }).waitFor();
  for (const [name, url] of [
    ["wikis", "/admin"],
    ["wiki-main", "/admin/wikis/main"],
    ["tokens", "/admin/tokens"],
    ["audit", "/admin/audit?size=2"],
    ["users", "/admin/users"],
    ["groups", "/admin/groups"],
    ["rights", "/admin/rights?wiki=main&user=alice&space=Sandbox"],
  ]) {
    await small.goto(`${base}${url}`);
    await small.locator("main h1").waitFor();
    await assertNoSidewaysScroll(small, name);
    const table = small.locator("main table").first();
    if ((await table.count()) > 0) {
      const box = await small.locator(".scroll").first().boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 360, `${name}: the table's box is on the screen`);
    }
    await shot(small, `phone-${name}`);
  }
  await phone.close();

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
