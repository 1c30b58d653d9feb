// A Vietnamese class in headless chromium: a student on a phone and a teacher on a laptop, both
// in Asia/Ho_Chi_Minh, both with Vietnamese as their account's language. The teacher invites the
// student by name; she accepts on her phone. Every page either meets
// must be Vietnamese throughout (no label from the English table), declare `lang="vi"`, and fit
// a 390 px and a 1,280 px window. Started by crates/cli/tests/cli/browser.rs with GRUNDY_URL,
// GRUNDY_ARTIFACTS, GRUNDY_UI_DIR (the label tables), GRUNDY_CORRECT / GRUNDY_WRONG (C++ files),
// GRUNDY_TEACHER / GRUNDY_TEACHER_PASSWORD.
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import {
  env, launch, watch, screenshots, unlabelled, fitsBothWidths, englishWords, englishOn,
  DESKTOP, PHONE,
} from "./lib.mjs";

const base = env("GRUNDY_URL");
const shot = screenshots(env("GRUNDY_ARTIFACTS"));
const english = englishWords(env("GRUNDY_UI_DIR"));
const step = (text) => console.log(`- ${text}`);

const browser = await launch();
const problems = [];
const zone = "Asia/Ho_Chi_Minh";
// The student's browser asks for Vietnamese; the teacher's asks for English, and her account's
// preference must win over it.
const student = await (await browser.newContext({
  viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  locale: "vi-VN", timezoneId: zone,
})).newPage();
const teacher = await (await browser.newContext({
  viewport: DESKTOP, locale: "en-US", timezoneId: zone,
})).newPage();
watch(student, base, problems);
watch(teacher, base, problems);

// What every page of the flow must be: Vietnamese, labelled, and no wider than the window. The
// flow goes on past a page that fails, so one run lists every English label left.
const checked = [];
const faults = [];
const vietnamese = async (on, name) => {
  const lang = await on.getAttribute("html", "lang");
  if (lang !== "vi") faults.push(`${name}: <html lang="${lang}">`);
  const left = await englishOn(on, english);
  if (left.length > 0) faults.push(`${name}: English left: ${left.join(", ")}`);
  const bare = await unlabelled(on);
  if (bare.length > 0) faults.push(`${name}: unlabelled: ${bare.join(" ")}`);
  await fitsBothWidths(on, name).catch((error) => faults.push(error.message));
  await shot(`vi-${name}`, on);
  checked.push(name);
};

// A refusal the flow asks for is not a broken page: it leaves the list of problems.
const expected = (status, path) => {
  const at = problems.findIndex((p) => p.startsWith(`${status} from`) && p.endsWith(path));
  assert.ok(at >= 0, `the server answered ${status} to ${path}`);
  problems.splice(at, 1);
};

// What the phone's screen shows, without scrolling: the README's pictures.
const screen = async (name, on) => {
  await on.screenshot({ path: `${env("GRUNDY_ARTIFACTS")}/screen-${name}.png` });
  console.log(`screenshot screen-${name}.png`);
};

const submit = async (file) => {
  await student.selectOption("#language", "cpp20");
  await student.fill("#source", readFileSync(file, "utf8"));
  await Promise.all([
    student.waitForURL(/\/submissions\/\d+(#\w+)?$/),
    student.click("#submit button[type=submit]"),
  ]);
};

try {
  step("a student registers from a Vietnamese browser");
  await student.goto(`${base}/register`);
  await vietnamese(student, "register");
  await student.fill("#name", "binh");
  await student.fill("#password", "binh-password-1");
  await Promise.all([student.waitForURL(`${base}/problems`),
    student.click("main button[type=submit]")]);
  await vietnamese(student, "problems");

  step("and keeps Vietnamese as the account's language");
  await student.goto(`${base}/account`);
  await student.selectOption("#locale", "vi");
  await Promise.all([student.waitForURL(/\/account/),
    student.click("form[action='/account/language'] button")]);
  await vietnamese(student, "account");

  step("a teacher whose browser asks for English sets Vietnamese on her account");
  await teacher.goto(`${base}/login`);
  await teacher.fill("#name", env("GRUNDY_TEACHER"));
  await teacher.fill("#password", env("GRUNDY_TEACHER_PASSWORD"));
  await Promise.all([teacher.waitForURL((url) => !url.pathname.startsWith("/login")),
    teacher.click("main button[type=submit]")]);
  await teacher.goto(`${base}/account`);
  assert.equal(await teacher.getAttribute("html", "lang"), "en", "the browser's language first");
  await teacher.selectOption("#locale", "vi");
  await Promise.all([teacher.waitForURL(/\/account/),
    teacher.click("form[action='/account/language'] button")]);
  await vietnamese(teacher, "teacher-account");

  step("she opens a course");
  await teacher.goto(`${base}/courses`);
  await vietnamese(teacher, "courses-empty");
  await teacher.fill("#course-title", "Lớp 10A1 – Lý thuyết trò chơi");
  await Promise.all([teacher.waitForURL(/\/courses\/\d+$/),
    teacher.click("form[action='/courses'] button")]);
  const courseUrl = teacher.url();
  const code = (await teacher.textContent("#course-code")).trim();
  await vietnamese(teacher, "course-new");

  step("and sets Stones as homework, due in a week at 23:59 her time");
  await teacher.click("#new-assignment");
  await vietnamese(teacher, "new-assignment");
  await teacher.fill("#a-title", "Bài tập tuần 1");
  const inDays = (days, at) => {
    // A calendar day in Vietnam (UTC+7, no summer time), as a datetime-local input holds it.
    const date = new Date(Date.now() + 7 * 3600_000 + days * 86400_000).toISOString().slice(0, 10);
    return `${date}T${at}`;
  };
  await teacher.fill("#opens", inDays(-1, "07:00"));
  await teacher.fill("#due", inDays(7, "23:59"));
  await teacher.fill("#closes", inDays(8, "23:59"));
  // No zone on her account: the form takes her browser's, and says which.
  assert.equal(await teacher.inputValue("#zone"),
    await teacher.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));
  await teacher.check("#problems input[name=problems][value=stones]");
  await Promise.all([teacher.waitForURL(/\/assignments\/\d+$/),
    teacher.click("#assignment-form button")]);
  const assignmentUrl = teacher.url();
  const assignment = assignmentUrl.split("/").pop();
  // The API keeps UTC: 23:59 in Vietnam is 16:59 UTC.
  const stored = await (await teacher.request.get(`${base}/api/v1/assignments/${assignment}`)).json();
  const dueUtc = new Date(stored.due_at).toISOString();
  assert.equal(dueUtc.slice(0, 16), `${inDays(7, "23:59").slice(0, 10)}T16:59`,
    `the due time entered in ${zone} is stored in UTC (${dueUtc})`);
  await vietnamese(teacher, "assignment-teacher");

  step("she invites the student by name; the course waits for the student's answer");
  await teacher.goto(courseUrl);
  await teacher.fill("#names", "binh");
  await teacher.selectOption("#member-role", "student");
  await Promise.all([teacher.waitForURL(`${courseUrl}/members`),
    teacher.click("#import-form button")]);
  assert.match(await teacher.textContent("#import-invited"), /binh/);
  assert.equal(await teacher.locator("tr[data-invitee=binh]").count(), 1);
  assert.equal(await teacher.locator("tr[data-member=binh]").count(), 0, "not before she accepts");
  await vietnamese(teacher, "course-invited");

  step("the student finds the invitation on her phone's home page and accepts it");
  await student.goto(`${base}/`);
  const invitation = student.locator("#invitations .invitation");
  assert.equal(await invitation.count(), 1);
  assert.match(await invitation.textContent(), /mời em vào lớp Lớp 10A1/);
  assert.match(await invitation.textContent(), /Khi em nhận lời/);
  await vietnamese(student, "invitation");
  await screen("phone-invitation", student);
  await Promise.all([student.waitForURL(courseUrl),
    invitation.locator("button.accept").click()]);
  await vietnamese(student, "course-student");
  await student.goto(`${base}/courses`);
  assert.equal(await student.locator("#invitations").count(), 0, "answered");
  // The join code still works for whoever has it: a member already keeps her part.
  await student.fill("#join-code", code);
  await Promise.all([student.waitForURL(courseUrl),
    student.click("form[action='/courses/join'] button")]);
  await student.goto(assignmentUrl);
  // Her browser's zone is Vietnam's, as the teacher's: the due time reads as the teacher typed
  // it, with UTC on hover.
  const due = student.locator("main ul.facts li:nth-child(2) time");
  assert.match(await due.textContent(), /23:59 \(GMT\+7\)/);
  assert.match(await due.getAttribute("title"), /16:59 UTC/);
  await vietnamese(student, "assignment-student");

  step("reads the problem and submits an empty form, then a wrong program");
  await Promise.all([student.waitForURL(/\/problems\/stones\?assignment=/),
    student.click("#standing tr[data-problem='stones'] td:first-child a")]);
  await vietnamese(student, "problem");
  await student.selectOption("#language", "cpp20");
  await student.click("#submit button[type=submit]");
  await student.waitForSelector("#submit .error");
  // Refused where it was typed: the page's own address, with the form and the error.
  expected(400, `/problems/stones?assignment=${assignment}`);
  // The page opens at the form, the error above the editor, not at the statement's top.
  const errorAt = await student.locator("#submit-error").evaluate((e) => {
    const box = e.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, height: window.innerHeight };
  });
  assert.ok(errorAt.top >= 0 && errorAt.bottom <= errorAt.height,
    `the error is on the screen (${JSON.stringify(errorAt)})`);
  await screen("phone-refused", student);
  await vietnamese(student, "problem-refused");
  await submit(env("GRUNDY_WRONG"));
  await student.waitForSelector("#verdict.v-wrong_answer", { timeout: 180_000 });
  await vietnamese(student, "submission-wrong");
  await student.locator("#verdict").scrollIntoViewIfNeeded();
  await screen("phone-submission", student);

  step("and a right one");
  await student.goto(assignmentUrl);
  await student.click("#standing tr[data-problem='stones'] td:first-child a");
  await student.waitForURL(/\/problems\/stones/);
  await submit(env("GRUNDY_CORRECT"));
  await student.waitForSelector("#verdict.v-accepted", { timeout: 180_000 });
  await vietnamese(student, "submission-accepted");
  await student.goto(`${base}/submissions`);
  await vietnamese(student, "my-submissions");
  await student.goto(assignmentUrl);
  assert.equal(await student.textContent("#my-total"), "100");
  await vietnamese(student, "assignment-done");

  step("the teacher reads the gradebook");
  await teacher.goto(assignmentUrl);
  assert.equal(await teacher.textContent(
    "#gradebook tr[data-student=binh] td[data-problem='stones'] .score"), "100");
  await vietnamese(teacher, "gradebook");
  await teacher.goto(`${base}/teach/submissions`);
  await vietnamese(teacher, "teach-submissions");

  step("and a page that does not exist is Vietnamese too");
  const missing = await student.goto(`${base}/problems/no-such-problem`);
  assert.equal(missing.status(), 404);
  expected(404, "/problems/no-such-problem");
  await vietnamese(student, "not-found");

  assert.deepEqual(faults, [], "every page Vietnamese, labelled and within the window");
  assert.deepEqual(problems, [], "no script errors, nothing blocked, nothing fetched from elsewhere");
  console.log(`Vietnamese flow passed: ${checked.length} pages checked`);
} catch (error) {
  await shot("vi-failure-student", student).catch(() => {});
  await shot("vi-failure-teacher", teacher).catch(() => {});
  console.error(error);
  console.error(problems.join("\n"));
  process.exitCode = 1;
} finally {
  await browser.close();
}
