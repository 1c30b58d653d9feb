// What both browser flows share: the browser, the listeners that turn a broken page into a
// failure, screenshots, and the checks every page must pass (labels, width, language).
import { chromium } from "playwright-core";
import { readFileSync, mkdirSync } from "node:fs";
import assert from "node:assert/strict";

export const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

export const launch = () => chromium.launch({
  executablePath: process.env.GRUNDY_CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

// Failures a page can have without the flow noticing: script errors, what the
// Content-Security-Policy blocks, error statuses, and requests that leave Grundy.
export const watch = (page, base, problems) => {
  page.setDefaultTimeout(30_000);
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) {
      problems.push(`blocked by the policy: ${message.text()}`);
    }
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} from ${response.url()}`);
  });
  page.on("request", (request) => {
    if (!request.url().startsWith(base)) problems.push(`request to ${request.url()}`);
  });
};

export const screenshots = (artifacts) => {
  mkdirSync(artifacts, { recursive: true });
  return async (name, on) => {
    await on.screenshot({ path: `${artifacts}/${name}.png`, fullPage: true });
    console.log(`screenshot ${name}.png`);
  };
};

// Every visible form control has a label a screen reader and a keyboard user can find.
export const unlabelled = (on) => on.$$eval(
  "input:not([type=hidden]), select, textarea",
  (controls) => controls
    .filter((c) => !c.closest("[hidden]") && c.labels.length === 0 && !c.getAttribute("aria-label"))
    .map((c) => c.outerHTML),
);

// How far the page reaches past the window's right edge, in CSS pixels (0 when it fits). A page
// that hides its overflow on the root would fit by cutting content off, so that counts as a
// failure too.
const excess = (on) => on.evaluate(() => {
  const root = document.documentElement;
  const clipped = [root, document.body].some((e) =>
    ["hidden", "clip"].includes(getComputedStyle(e).overflowX));
  if (clipped) return { over: Number.POSITIVE_INFINITY, culprits: "overflow hidden on the root" };
  const over = root.scrollWidth - root.clientWidth;
  // The innermost elements past the edge, to say where to look.
  const name = (e) => e.tagName.toLowerCase() + (e.id ? `#${e.id}` : "") +
    [...e.classList].map((c) => `.${c}`).join("");
  const past = [...document.body.querySelectorAll("*")]
    .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5)
    .filter((e) => ![...e.children].some((c) => c.getBoundingClientRect().right > root.clientWidth + 0.5));
  const culprits = past.slice(0, 5).map((e) =>
    `${e.parentElement ? name(e.parentElement) + " > " : ""}${name(e)} (${Math.round(e.getBoundingClientRect().right)}px)`);
  return { over, culprits: culprits.join(", ") };
});

// The page as it is now, laid out at a desktop's width and at a phone's: neither may scroll
// sideways. The same document is measured at both, so pages reached by a form count too.
export const fitsBothWidths = async (on, what) => {
  const before = on.viewportSize();
  const measured = {};
  for (const size of [DESKTOP, PHONE]) {
    await on.setViewportSize(size);
    measured[size.width] = await excess(on);
  }
  await on.setViewportSize(before);
  for (const [width, { over, culprits }] of Object.entries(measured)) {
    assert.ok(over <= 0, `${what}: ${over}px wider than a ${width}px window (${culprits})`);
  }
};

// Whole words of three letters or more written without diacritics: "Không" is one Vietnamese
// word, not "Kh" and "ng".
const asciiWords = (text) => (text.match(/\p{L}+/gu) ?? []).filter((w) => /^[A-Za-z]{3,}$/.test(w));

// The English words of the interface: every word of the English label table that the
// Vietnamese table does not use as well (product names, "API", "CSV"), so a Vietnamese page that
// shows one has a label left untranslated.
export const englishWords = (uiDir) => {
  const words = (file) => new Set(
    [...readFileSync(`${uiDir}/${file}`, "utf8").matchAll(/"((?:[^"\\]|\\[\s\S])*)"/g)]
      .flatMap((m) => asciiWords(m[1]))
      .map((w) => w.toLowerCase()),
  );
  const vietnamese = words("vi.rs");
  return new Set([...words("en.rs")].filter((w) => !vietnamese.has(w)));
};

// The English words a page shows to a reader of Vietnamese: its text, and its controls' labels,
// placeholders and titles, leaving out what is not the interface's: program code and program
// output (pre, code, textarea), mathematics, whatever is marked as written in another language
// (the language switch: each language names itself), whatever is marked translate="no" (names
// of people and time zones) and quotations.
export const englishOn = async (on, english) => {
  const shown = await on.evaluate(() => {
    const skipped = (e) =>
      e.closest("pre, code, textarea, math, script, style, [translate=no], [hidden]") ||
      e.closest("[lang]")?.getAttribute("lang") !== document.documentElement.lang;
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!skipped(node.parentElement)) texts.push(node.textContent);
    }
    for (const e of document.querySelectorAll("[placeholder], [title], [aria-label], input[type=submit]")) {
      if (skipped(e)) continue;
      texts.push(e.getAttribute("placeholder") ?? "", e.getAttribute("title") ?? "",
        e.getAttribute("aria-label") ?? "", e.type === "submit" ? e.value : "");
    }
    texts.push(document.title);
    return texts.join("\n");
  });
  // A quotation is data (a program's output in a checker's message), not the interface's words.
  const unquoted = shown.replace(/"[^"\n]*"|“[^”\n]*”/g, " ");
  const found = new Set(asciiWords(unquoted).filter((w) => english.has(w.toLowerCase())));
  return [...found];
};
