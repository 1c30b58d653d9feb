// A student and a teacher in headless chromium against a running Grundy. Started by
// crates/cli/tests/cli/browser.rs, which passes everything through the environment:
//   GRUNDY_URL, GRUNDY_ARTIFACTS (screenshots go there), GRUNDY_SUM_PARITY (a Stones program
//   answering by the parity of K), GRUNDY_CORRECT / GRUNDY_WRONG (C++
//   files), GRUNDY_PACKAGE (a zip), GRUNDY_PACKAGE_SLUG, GRUNDY_TEACHER / GRUNDY_TEACHER_PASSWORD.
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import {
  env, launch, watch, screenshots, unlabelled, fitsBothWidths, DESKTOP,
} from "./lib.mjs";

const base = env("GRUNDY_URL");
const screenshot = screenshots(env("GRUNDY_ARTIFACTS"));

const browser = await launch();
const context = await browser.newContext({ viewport: DESKTOP });
const page = await context.newPage();
const problems = [];
watch(page, base, problems);

// Every page the flow shows is screenshotted, and measured first: it fits a phone's width and a
// desktop's.
const shot = async (name, on = page) => {
  await fitsBothWidths(on, name);
  await screenshot(name, on);
};
const step = (text) => console.log(`- ${text}`);

try {
  step("a student registers");
  await page.goto(`${base}/register`);
  await shot("00-register");
  await page.fill("#name", "sam");
  await page.fill("#password", "sam-password-1");
  await Promise.all([page.waitForURL(`${base}/problems`), page.click("main button[type=submit]")]);
  assert.equal(await page.textContent("#who"), "sam");
  const listed = await page.locator("table.problems tbody tr").count();
  assert.ok(listed >= 4, `the list shows the catalogue (${listed} rows)`);
  await shot("01-problems");

  step("opens Stones and sees MathML");
  await page.click("table.problems a[href='/problems/stones']");
  await page.waitForURL(`${base}/problems/stones`);
  assert.equal(await page.textContent("h1"), "Stones");
  const math = await page.$$eval(".statement math", (nodes) =>
    nodes.map((n) => n.namespaceURI));
  assert.ok(math.length > 0, "the statement has math");
  assert.ok(math.every((ns) => ns === "http://www.w3.org/1998/Math/MathML"), "as MathML");
  assert.equal(await page.locator(".samples pre").count(), 12, "six samples, input and output");
  assert.ok(await page.isVisible("button.copy"), "copy buttons show with JavaScript");
  assert.deepEqual(await unlabelled(page), []);
  await shot("02-problem-stones");

  step("reads the statement without JavaScript, on a phone and on a projector");
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const noScript = await plain.newPage();
  await noScript.goto(`${base}/problems/stones`);
  assert.ok(await noScript.locator(".statement math").count() > 0, "math without scripts");
  assert.equal(await noScript.locator("pre").count(), 12, "samples without scripts");
  await plain.close();
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  const small = await phone.newPage();
  await small.goto(`${base}/problems/stones`);
  const overflow = await small.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow}px too wide)`);
  await shot("02-phone-problem", small);
  await phone.close();
  const projector = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const wide = await projector.newPage();
  await wide.goto(`${base}/problems/stones`);
  const rootSize = await wide.evaluate(() =>
    parseFloat(getComputedStyle(document.documentElement).fontSize));
  assert.ok(rootSize >= 20, `larger type on a projector (${rootSize}px)`);
  await projector.close();

  step("reads it in Vietnamese and back");
  await page.click("nav.languages a[hreflang=vi]");
  assert.equal(await page.textContent("h1"), "Bốc đá");
  assert.equal(await page.getAttribute(".statement", "lang"), "vi");
  await page.click("nav.languages a[hreflang=en]");
  assert.equal(await page.textContent("h1"), "Stones");

  // The test count, from the API rather than the page under test.
  const detail = await (await page.request.get(`${base}/api/v1/problems/stones`)).json();
  const testCount = detail.samples.length +
    detail.subtasks.reduce((sum, subtask) => sum + subtask.tests, 0);

  // A submission's address may keep the form's fragment (#submit) across the redirect.
  const submit = async (file) => {
    await page.goto(`${base}/problems/stones`);
    await page.selectOption("#language", "cpp20");
    await page.fill("#source", readFileSync(file, "utf8"));
    await Promise.all([
      page.waitForURL(/\/submissions\/\d+(#\w+)?$/),
      page.click("#submit button[type=submit]"),
    ]);
  };
  const verdicts = async () => page.$$eval("#tests tr", (rows) => rows.map((row) => ({
    name: row.cells[0].textContent,
    verdict: row.cells[1].textContent,
    live: row.dataset.live === "true",
  })));

  step("submits a correct C++ solution and watches it turn green");
  await submit(env("GRUNDY_CORRECT"));
  await page.waitForSelector("#verdict.v-accepted", { timeout: 180_000 });
  assert.equal(await page.textContent("#verdict"), "Accepted");
  assert.equal(await page.textContent("#score"), "100/100");
  const accepted = await verdicts();
  assert.equal(accepted.length, testCount, "a row per test");
  assert.ok(accepted.every((t) => t.verdict === "Accepted"), "every test green");
  assert.ok(accepted.every((t) => t.live), "rows came over the live stream");
  await shot("03-submission-accepted");

  step("submits a wrong one and sees Wrong Answer on the third sample");
  await submit(env("GRUNDY_WRONG"));
  await page.waitForSelector("#verdict.v-wrong_answer", { timeout: 180_000 });
  assert.equal(await page.textContent("#verdict"), "Wrong Answer");
  const judged = await verdicts();
  const wrong = judged.filter((t) => t.verdict === "Wrong Answer").map((t) => t.name);
  assert.deepEqual(wrong, ["samples #3"]);
  assert.ok(judged.filter((t) => t.name !== "samples #3")
    .every((t) => t.verdict === "Accepted" || t.verdict === "Skipped"));
  // The failed sample side by side, as it arrived: its input, the answer and what was printed.
  const failed = page.locator("#failed-list article.failed");
  assert.equal(await failed.count(), 1, "the failed sample shows its data");
  assert.equal(await failed.locator(".failed-name").textContent(), "samples #3");
  assert.deepEqual(await failed.locator("pre").allTextContents(),
    ["2 7\n2 3\n", "First\n", "Second\n"]);
  assert.deepEqual(await page.locator("#subtask-list li").allTextContents(),
    ["Subtask 1 (30 points): 30/30", "Subtask 2 (70 points): 70/70"], "as the statement names them");
  await shot("04-submission-wrong-answer");
  const phoneView = await browser.newContext({
    storageState: await context.storageState(),
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  const onPhone = await phoneView.newPage();
  await onPhone.goto(page.url());
  const stacked = await onPhone.$$eval("#failed-list pre", (pres) =>
    pres.map((pre) => Math.round(pre.getBoundingClientRect().left)));
  assert.equal(stacked.length, 3, "input, answer and output on the finished page too");
  assert.ok(stacked.every((left) => left === stacked[0]), `stacked on a phone (${stacked})`);
  const tooWide = await onPhone.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(tooWide <= 0, `no sideways scrolling on a phone (${tooWide}px too wide)`);
  await shot("04-phone-failed-sample", onPhone);
  await phoneView.close();

  step("submits one answering by the parity of K and reads why it is wrong");
  await submit(env("GRUNDY_SUM_PARITY"));
  await page.waitForSelector("#verdict.v-wrong_answer", { timeout: 180_000 });
  // The explanation comes after the verdict, over the same live stream.
  await page.waitForSelector("#explanation-misconception:not([hidden])", { timeout: 60_000 });
  assert.equal(await page.textContent("#misconception-id"), "sum-parity");
  assert.ok((await page.textContent("#explanation-position")).trim().length > 0, "a position");
  assert.ok((await page.textContent("#explanation-why")).length > 20, "a certificate");
  await shot("04b-submission-explained");

  step("submits one that does not compile and reads the compiler's message");
  await page.goto(`${base}/problems/stones`);
  await page.selectOption("#language", "cpp20");
  await page.fill("#source", "int main() { return undeclared_name; }\n");
  await Promise.all([page.waitForURL(/\/submissions\/\d+(#\w+)?$/), page.click("#submit button[type=submit]")]);
  await page.waitForSelector("#verdict.v-compilation_error", { timeout: 120_000 });
  assert.equal(await page.textContent("#verdict"), "Compilation Error");
  assert.ok(await page.isVisible("#compile-message"));
  assert.match(await page.textContent("#compile-message"), /undeclared_name/);
  await shot("05-compilation-error");

  step("finds all four under my submissions");
  await page.click("header a[href='/submissions']");
  assert.equal(await page.locator("table.submissions tbody tr").count(), 4);
  assert.deepEqual(await unlabelled(page), []);
  await page.reload();
  await page.goto(`${base}/problems`);
  assert.match(await page.textContent("tr[data-slug=stones] td.mark"), /solved/);
  await shot("05-my-submissions-solved-mark");

  step("answers its personal instances in answer mode");
  await page.goto(`${base}/problems/stones/answers`);
  const boxes = page.locator("fieldset.instance textarea");
  assert.ok(await boxes.count() > 6, "samples and drawn instances");
  assert.deepEqual(await unlabelled(page), []);
  // The samples' answers are on the problem page: typing them earns no points but is judged.
  for (const [index, answer] of ["First", "Second", "First", "Second", "First", "Second"].entries()) {
    await boxes.nth(index).fill(answer);
  }
  await shot("06-answer-mode");
  await Promise.all([page.waitForURL(/\/submissions\/\d+(#\w+)?$/), page.click("main button[type=submit]")]);
  await page.waitForSelector("#verdict.v-wrong_answer", { timeout: 60_000 });
  const answered = await verdicts();
  assert.deepEqual(
    answered.filter((t) => t.name.startsWith("samples")).map((t) => t.verdict),
    Array(6).fill("Accepted"),
    "the sample answers are right",
  );
  assert.equal(await page.textContent("#score"), "0/100", "blank instances earn nothing");

  step("plays Nim against the reference, asks for a hint and reads the value history");
  await page.goto(`${base}/problems/nim-play`);
  await Promise.all([page.waitForURL(/\/play\/nim-play$/), page.click("a.play-link")]);
  assert.deepEqual(await unlabelled(page), []);
  // From (3, 5) only taking 2 from pile 2 wins; taking 1 from pile 1 gives the win away.
  await page.fill("#start", "2 3 5");
  await page.check("input[name=side][value=first]");
  await Promise.all([page.waitForURL(/side=first/), page.click("#play-begin")]);
  await page.fill("#move", "1 1");
  await Promise.all([page.waitForURL(/move=1\+1/), page.press("#move", "Enter")]);
  assert.match(await page.textContent("#position"), /\(2, 2\)/, "the referee answered");
  await Promise.all([page.waitForURL(/hint=1/), page.click("#play-hint")]);
  assert.match(await page.textContent("#hint"), /loses/, "a lost position has no winning move");
  await page.fill("#move", "1 2");
  await Promise.all([page.waitForURL(/move=1\+2/), page.click("#play-move")]);
  assert.match(await page.textContent("#result"), /referee won/);
  const mistake = page.locator("#history tr.first-mistake");
  assert.equal(await mistake.count(), 1, "the first mistake is highlighted");
  assert.match(await mistake.textContent(), /1 1[\s\S]*2 2/, "with the winning move there was");
  await shot("06b-play-value-history");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot("06c-play-on-a-phone");
  await page.setViewportSize({ width: 1280, height: 900 });

  step("a teacher logs in and uploads a package");
  await page.goto(`${base}/problems`);
  await page.click("button:has-text('Log out')");
  await page.goto(`${base}/teach/upload`);
  await page.waitForURL(/\/login\?next=/);
  await shot("07-login");
  // By keyboard alone: the name field has focus, Tab reaches the password, Enter submits.
  assert.equal(await page.evaluate(() => document.activeElement?.id), "name");
  await page.keyboard.type(env("GRUNDY_TEACHER"));
  await page.keyboard.press("Tab");
  await page.keyboard.type(env("GRUNDY_TEACHER_PASSWORD"));
  await Promise.all([page.waitForURL(`${base}/teach/upload`), page.keyboard.press("Enter")]);
  assert.deepEqual(await unlabelled(page), []);
  const slug = env("GRUNDY_PACKAGE_SLUG");
  await page.setInputFiles("#package", env("GRUNDY_PACKAGE"));
  await shot("08-teach-upload");
  await Promise.all([page.waitForURL(`${base}/teach?uploaded=${slug}`), page.click("main button[type=submit]")]);
  assert.match(await page.textContent(".notice"), new RegExp(`${slug} is stored at version 1 as a draft`));
  await Promise.all([
    page.waitForURL(`${base}/teach?published=${slug}`),
    page.click(`#teach-problems tr[data-slug='${slug}'] form[action$='/publish'] button`),
  ]);
  assert.match(await page.textContent(".notice"), new RegExp(`${slug} is published`));
  assert.equal(await page.locator(`#teach-problems tr[data-slug='${slug}']`).count(), 1);
  await shot("09-teach-uploaded");
  await page.goto(`${base}/problems`);
  assert.equal(await page.locator(`table.problems tr[data-slug='${slug}']`).count(), 1,
    "listed with the others");

  step("creates a variant of Stones from the form");
  await page.goto(`${base}/teach/variants`);
  await page.selectOption("#base-choice", "nim");
  // htmx reloads the form with the chosen base's subtasks.
  await page.waitForFunction(() =>
    document.querySelector("input[name=base][type=hidden]")?.value === "nim");
  await page.selectOption("#base-choice", "stones");
  await page.waitForFunction(() =>
    document.querySelector("input[name=base][type=hidden]")?.value === "stones");
  await page.fill("#slug", "stones-small");
  await page.fill("#title", "Stones, small piles");
  await page.fill("#time_limit_ms", "1000");
  assert.deepEqual(await unlabelled(page), []);
  await shot("10-teach-variant");
  await Promise.all([page.waitForURL(`${base}/problems/stones-small`),
    page.click("#variant-form button[type=submit]")]);
  assert.equal(await page.textContent("h1"), "Stones, small piles");
  assert.match(await page.textContent("ul.facts"), /1000 ms/);

  const logIn = async (name, password) => {
    await page.goto(`${base}/login`);
    await page.fill("#name", name);
    await page.fill("#password", password);
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/login")),
      page.click("main button[type=submit]")]);
    assert.equal(await page.textContent("#who"), name);
  };
  const logOut = async () => {
    await Promise.all([page.waitForURL(`${base}/problems`), page.click("button:has-text('Log out')")]);
  };
  // datetime-local values are read in the zone chosen beside them: UTC here, chosen explicitly
  // (the form starts in the browser's zone when the account names none).
  const local = (ms) => new Date(ms).toISOString().slice(0, 16);
  const minute = 60_000, hour = 60 * minute, day = 24 * hour;
  const start = Math.floor(Date.now() / minute) * minute;

  step("creates a course and imports a student from a list");
  await page.goto(`${base}/courses`);
  await page.fill("#course-title", "Games 101");
  await Promise.all([page.waitForURL(/\/courses\/\d+$/), page.click("form[action='/courses'] button")]);
  const courseUrl = page.url();
  const code = (await page.textContent("#course-code")).trim();
  assert.match(code, /^[A-Z2-9]{8}$/);
  await page.fill("#names", "kim\n");
  await Promise.all([page.waitForURL(courseUrl + "/members"), page.click("#import-form button")]);
  const kimPassword = (await page.textContent("#import-report tr[data-user=kim] code")).trim();
  assert.ok(kimPassword.length >= 12, "a password for the new account, shown once");
  assert.equal(await page.locator("tr[data-member=kim]").count(), 1);
  assert.deepEqual(await unlabelled(page), []);
  await shot("13-course-imported");

  step("sets an assignment of three problems, due twelve hours ago, −10% a day");
  await page.goto(courseUrl);
  await page.click("#new-assignment");
  await page.fill("#a-title", "Week 1");
  await page.selectOption("#zone", "UTC");
  await page.fill("#opens", local(start - 3 * day));
  await page.fill("#due", local(start - 12 * hour));
  await page.fill("#closes", local(start + 5 * day));
  await page.fill("#penalty", "10");
  await page.fill("#step", "24");
  await page.selectOption("#feedback", "inputs");
  // Ticked in this order, each is numbered after the last (grundy.js); the search finds by title.
  for (const p of ["stones", "stones-small", slug]) await page.check(`#problems li[data-problem='${p}'] input[type=checkbox]`);
  await page.fill("#problem-search", "zzz-nothing");
  assert.equal(await page.locator("#problems li[data-problem='nim']").isVisible(), false);
  assert.equal(await page.locator("#problems li[data-problem='stones']").isVisible(), true, "ticked ones stay");
  await page.fill("#problem-search", "");
  assert.deepEqual(await unlabelled(page), []);
  await shot("14-new-assignment");
  await Promise.all([page.waitForURL(/\/assignments\/\d+$/), page.click("#assignment-form button")]);
  const assignmentUrl = page.url();
  const assignment = assignmentUrl.split("/").pop();
  assert.equal(await page.textContent("h1"), "Week 1");
  assert.equal(await page.locator("#gradebook tbody tr").count(), 1, "kim so far");

  step("a student joins with the code and is late");
  await logOut();
  await logIn("sam", "sam-password-1");
  await page.goto(`${base}/courses`);
  await page.fill("#join-code", code.toLowerCase());
  await Promise.all([page.waitForURL(courseUrl), page.click("form[action='/courses/join'] button")]);
  assert.equal(await page.textContent(`tr[data-assignment='${assignment}'] td.status`), "past due, late work accepted");

  step("the teacher gives sam an extension to tomorrow");
  await logOut();
  await logIn(env("GRUNDY_TEACHER"), env("GRUNDY_TEACHER_PASSWORD"));
  await page.goto(assignmentUrl);
  await page.selectOption("#extension-student", { label: "sam" });
  await page.selectOption("#extension-form select[name=zone]", "UTC");
  await page.fill("#extension-due", local(start + day));
  await Promise.all([page.waitForURL(assignmentUrl), page.click("#extension-form button")]);
  assert.equal(await page.locator("#extensions li[data-student=sam]").count(), 1);

  const submitFor = async (problem) => {
    await page.goto(assignmentUrl);
    await Promise.all([page.waitForURL(`${base}/problems/${problem}?assignment=${assignment}`),
      page.click(`#standing tr[data-problem='${problem}'] td:first-child a`)]);
    assert.match(await page.textContent("#for-assignment"), /Week 1/);
    await page.selectOption("#language", "cpp20");
    await page.fill("#source", readFileSync(env("GRUNDY_CORRECT"), "utf8"));
    await Promise.all([page.waitForURL(/\/submissions\/\d+(#\w+)?$/), page.click("#submit button[type=submit]")]);
    await page.waitForSelector("#verdict.v-accepted", { timeout: 180_000 });
  };

  step("sam submits two problems on time under the extension");
  await logOut();
  await logIn("sam", "sam-password-1");
  await page.goto(assignmentUrl);
  assert.equal(await page.locator("#my-extension").count(), 1, "sam sees the extension");
  await submitFor("stones");
  await submitFor("stones-small");
  await page.goto(assignmentUrl);
  assert.equal(await page.textContent("#my-total"), "200");
  assert.deepEqual(await unlabelled(page), []);
  await shot("15-assignment-student");

  step("kim signs in with the handed-out password and submits late");
  await logOut();
  await logIn("kim", kimPassword);
  await submitFor("stones");
  await page.goto(assignmentUrl);
  assert.equal(await page.textContent("#standing tr[data-problem=stones] td.score"), "90");
  assert.equal(await page.textContent("#my-total"), "90");
  // Someone else's submission and the gradebook stay out of reach.
  const gradebook = await page.request.get(`${base}/api/v1/assignments/${assignment}/gradebook`);
  assert.equal(gradebook.status(), 403, "students do not read the gradebook");
  // That refusal was the test's own doing, should the response listener have seen it.
  const expected = problems.findIndex((p) => p.startsWith("403 from") && p.endsWith("/gradebook"));
  if (expected >= 0) problems.splice(expected, 1);

  step("the teacher reads the gradebook and downloads the CSV");
  await logOut();
  await logIn(env("GRUNDY_TEACHER"), env("GRUNDY_TEACHER_PASSWORD"));
  await page.goto(assignmentUrl);
  const cell = (student, problem) =>
    page.textContent(`#gradebook tr[data-student=${student}] td[data-problem='${problem}'] .score`);
  assert.equal(await cell("sam", "stones"), "100");
  assert.equal(await cell("kim", "stones"), "90");
  assert.equal(await page.textContent("#gradebook tr[data-student=kim] td.total"), "90");
  await shot("16-gradebook");
  const csv = await (await page.request.get(`${base}/api/v1/assignments/${assignment}/gradebook.csv`)).text();
  const [header, ...rows] = csv.trim().split("\n");
  // The problems' order and full marks from the API, not from the page under test.
  const order = (await (await page.request.get(`${base}/api/v1/assignments/${assignment}`)).json())
    .problems;
  assert.deepEqual([...order].sort(), ["pebbles-web", "stones", "stones-small"]);
  const marks = async (problem) => (await (await page.request.get(`${base}/api/v1/problems/${problem}`))
    .json()).subtasks.reduce((sum, s) => sum + s.points, 0);
  let full = 0;
  const columns = [];
  for (const p of order) {
    const m = await marks(p);
    full += m;
    columns.push(`${p} score (of ${m}),${p} penalty %,${p} counted at,${p} attempts`);
  }
  assert.equal(header, `student,due,${columns.join(",")},total (of ${full})`);
  const byName = Object.fromEntries(rows.map((r) => [r.split(",")[0], r.split(",")]));
  // Per problem: score after penalty, penalty %, attempts; then the total.
  const pick = (row) => [...order.flatMap((p) => {
    const at = 2 + 4 * order.indexOf(p);
    return [`${p}: ${row[at]} ${row[at + 1]}% ×${row[at + 3]}`];
  }), `total ${row[row.length - 1]}`];
  const expect = (counted, total) =>
    order.map((p) => counted[p] ?? `${p}:  0% ×0`).concat([`total ${total}`]);
  assert.deepEqual(pick(byName.sam),
    expect({ stones: "stones: 100 0% ×1", "stones-small": "stones-small: 100 0% ×1" }, 200));
  assert.deepEqual(pick(byName.kim), expect({ stones: "stones: 90 10% ×1" }, 90),
    "kim lost 10% for starting a day late");
  assert.equal(byName.sam[1], `${local(start + day)}:00Z`, "sam's own due time");
  const means = byName["class mean"];
  assert.equal(means[2 + 4 * order.indexOf("stones")], "95");
  assert.equal(means[means.length - 1], "145");

  step("filters her courses' submissions without a reload");
  await page.goto(`${base}/teach/submissions`);
  await page.selectOption("select[name=verdict]", "wrong_answer");
  await page.waitForURL(/verdict=wrong_answer/);
  // sam's wrong programs were practice: not his teacher's to see.
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length === 0);
  await page.selectOption("select[name=verdict]", "accepted");
  await page.waitForURL(/verdict=accepted/);
  await page.waitForFunction(() => document.querySelectorAll("#results tbody tr").length === 3);
  assert.deepEqual(await page.$$eval("#results tbody tr td:nth-child(3)", (cells) =>
    cells.map((c) => c.textContent)), ["kim", "sam", "sam"], "the assignment's submissions");
  await shot("11-teach-submissions");
  const rejudged = await page.getAttribute("#results tbody tr:first-child", "data-id");
  const judgedAt = async () => (await (await page.request.get(
    `${base}/api/v1/submissions/${rejudged}`)).json()).judged_at;
  const firstJudged = await judgedAt();
  await Promise.all([page.waitForURL(/verdict=accepted/),
    page.click("#results tbody tr:first-child button")]);
  // Judged again: a later judging time (the page may show it queued or already done again).
  for (let tries = 0; !((await judgedAt()) > firstJudged); tries++) {
    assert.ok(tries < 600, "the rejudge was picked up");
    await page.waitForTimeout(100);
  }

  step("manages users");
  await page.goto(`${base}/teach/users`);
  assert.equal(await page.locator("tr[data-user=sam]").count(), 1);
  assert.deepEqual(await unlabelled(page), []);
  await shot("12-teach-users");

  step("every other page a teacher reaches fits a phone and a desktop");
  const courseId = courseUrl.split("/").pop();
  const pages = [
    "/account", "/courses", `/courses/${courseId}`, `/courses/${courseId}/assignments/new`,
    `/assignments/${assignment}/edit`, `/assignments/${assignment}/delete`, "/teach",
    "/teach/games", "/teach/variants", "/teach/upload", "/submissions", "/problems",
    "/problems/nim-play", "/problems/stones/answers",
  ];
  await page.goto(`${base}/courses/${courseId}`);
  const removal = await page.getAttribute("tr[data-member=kim] a[href*='/remove']", "href");
  assert.ok(removal, "removing a member goes through a confirmation page");
  pages.push(removal);
  for (const path of pages) {
    await page.goto(`${base}${path}`);
    await fitsBothWidths(page, path);
    assert.deepEqual(await unlabelled(page), [], `${path}: every control labelled`);
  }

  step("reads the API's documentation under its policy");
  await page.goto(`${base}/api/docs/`);
  await page.locator(".swagger-ui .info .title", { hasText: "Grundy" }).waitFor();
  assert.ok(await page.locator(".opblock").count() > 10);

  assert.deepEqual(problems, [], "no script errors, nothing blocked, nothing fetched from elsewhere");
  console.log("browser flow passed");
} catch (error) {
  await shot("failure").catch(() => {});
  console.error(error);
  console.error(problems.join("\n"));
  process.exitCode = 1;
} finally {
  await browser.close();
}
