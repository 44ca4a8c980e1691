/**
 * The classroom endpoints (docs/ARCHITECTURE.md, "The classroom"): one class as its instructor
 * runs it (roster, queue, pause, CSV, presentation, assignments and the gradebook; ending it and
 * cancelling a run are every feature's: src/lib/classes-api.ts, runs-api.ts), the class board,
 * stream and assigned exercises its students share. Every answer goes through a zod schema.
 */
import { z } from 'zod';

import { apiRequest, apiUrl } from '@/lib/api-client';
import { classSchema } from '@/lib/api-schemas';
import type { Language } from '@/lib/i18n';

import {
  assignmentSchema,
  assignmentsSchema,
  boardSchema,
  gradebookSchema,
  handSchema,
  joinLinksSchema,
  lessonQuestionsSchema,
  liveSchema,
  personalCodeSchema,
  presentationSchema,
  staffListSchema,
  staffSchema,
  queueSchema,
  rosterSchema,
  type AssignRequest,
  type PresentationRequest,
} from '../lib/classroom-schemas';

function classPath(id: string, rest = ''): string {
  return `/classes/${encodeURIComponent(id)}${rest}`;
}

/** Removing a student or an assignment and stopping a presentation answer 204 with no body:
 *  nothing to check. */
const noContent = z.undefined();

// ───────────────────────────── the class ──────────────────────────

export function getClass(id: string, signal?: AbortSignal) {
  return apiRequest(classPath(id), classSchema, { signal });
}

/** Holds the class's waiting runs (a running one finishes). */
export function pauseClass(id: string) {
  return apiRequest(classPath(id, '/pause'), classSchema, { method: 'POST' });
}

export function resumeClass(id: string) {
  return apiRequest(classPath(id, '/resume'), classSchema, { method: 'POST' });
}

/** Where students can open the class: built on the server, which knows the host's addresses. */
export function getJoinLinks(id: string, signal?: AbortSignal) {
  return apiRequest(classPath(id, '/join-links'), joinLinksSchema, { signal });
}

/** How many days after the class ends its students may still read their results. */
export function setResultsDays(id: string, resultsDays: number) {
  return apiRequest(classPath(id), classSchema, { method: 'PATCH', body: { results_days: resultsDays } });
}

/** The class's SSE stream: the class, the presentation and what it shows. No ids: a reconnect starts over. */
export function classEventsUrl(id: string): string {
  return apiUrl(classPath(id, '/events'));
}

// ───────────────────────────── students and runs ──────────────────

/** The roster; a raised hand's lesson and experiment titled in `language`. */
export function getRoster(id: string, language: Language, signal?: AbortSignal) {
  return apiRequest(classPath(id, `/roster?lang=${language}`), rosterSchema, { signal });
}

/** Removes a student: their sessions end and their waiting runs are cancelled; their results stay. */
export function removeStudent(id: string, personId: string): Promise<void> {
  return apiRequest(classPath(id, `/students/${encodeURIComponent(personId)}`), noContent, { method: 'DELETE' });
}

/** A new personal code for a student (their old one stops working), for the instructor to hand them. */
export function newPersonalCode(id: string, personId: string) {
  return apiRequest(classPath(id, `/students/${encodeURIComponent(personId)}/personal-code`), personalCodeSchema, {
    method: 'POST',
  });
}

/** Lets a removed student back in: they come back with their personal code. */
export function readmitStudent(id: string, personId: string): Promise<void> {
  return apiRequest(classPath(id, `/students/${encodeURIComponent(personId)}/readmit`), noContent, { method: 'POST' });
}

export function getQueue(id: string, signal?: AbortSignal) {
  return apiRequest(classPath(id, '/queue'), queueSchema, { signal });
}

/** A student's own runs in their class as CSV: theirs to keep after the class ends. */
export function myResultsCsvUrl(): string {
  return apiUrl('/progress/results.csv');
}

/** Every run of the class as CSV: a plain link (with `download`), the browser sends the session cookie. */
export function csvUrl(id: string): string {
  return apiUrl(classPath(id, '/runs.csv'));
}

// ───────────────────────────── presenting ─────────────────────────

/** Shows a lesson (and an experiment, run or sweep of it) to the whole class; replaces what was shown. */
export function present(id: string, body: PresentationRequest) {
  return apiRequest(classPath(id, '/presentation'), presentationSchema, { method: 'PUT', body });
}

export function stopPresenting(id: string): Promise<void> {
  return apiRequest(classPath(id, '/presentation'), noContent, { method: 'DELETE' });
}

/** The class board, its lessons and experiments titled in `language`. */
export function getBoard(id: string, language: Language, signal?: AbortSignal) {
  return apiRequest(classPath(id, `/board?lang=${language}`), boardSchema, { signal });
}

// ───────────────────────────── assignments and the gradebook ──────

function assignmentPath(id: string, exercise: string): string {
  return classPath(id, `/assignments/${encodeURIComponent(exercise)}`);
}

/** The exercises assigned to the class, in the order assigned; a student's each with their own cell. */
export function getAssignments(id: string, signal?: AbortSignal) {
  return apiRequest(classPath(id, '/assignments'), assignmentsSchema, { signal });
}

/** Assigns an exercise (by slug) with an optional due time; again: changes its due time. */
export function assign(id: string, exercise: string, body: AssignRequest) {
  return apiRequest(assignmentPath(id, exercise), assignmentSchema, { method: 'PUT', body });
}

/** Takes an exercise off the class's list; the answers to it stay. */
export function unassign(id: string, exercise: string): Promise<void> {
  return apiRequest(assignmentPath(id, exercise), noContent, { method: 'DELETE' });
}

/** Students × assigned exercises, for the instructor. */
export function getGradebook(id: string, signal?: AbortSignal) {
  return apiRequest(classPath(id, '/gradebook'), gradebookSchema, { signal });
}

/** The gradebook as CSV, a row per student and assignment: a plain link, as the runs' CSV. */
export function gradebookCsvUrl(id: string): string {
  return apiUrl(classPath(id, '/gradebook.csv'));
}

// ───────────────────────────── live-class tools ───────────────────

/** The timer, the newest announcements and the questions revealed (the stream's `live`). */
export function getLive(id: string, signal?: AbortSignal) {
  return apiRequest(classPath(id, '/live'), liveSchema, { signal });
}

/** A student's own hand: null while it is down. */
export function getMyHand(id: string, language: Language, signal?: AbortSignal) {
  return apiRequest(classPath(id, `/hand?lang=${language}`), handSchema.nullable(), { signal });
}

/** "I'm stuck", where: a lesson and an experiment of it (by key), each optional. */
export function raiseHand(id: string, where: { lesson?: string; experiment?: string }, language: Language) {
  return apiRequest(classPath(id, `/hand?lang=${language}`), handSchema, { method: 'PUT', body: where });
}

export function lowerMyHand(id: string): Promise<void> {
  return apiRequest(classPath(id, '/hand'), noContent, { method: 'DELETE' });
}

/** The instructor lowers a student's hand. */
export function lowerHand(id: string, personId: string): Promise<void> {
  return apiRequest(classPath(id, `/hands/${encodeURIComponent(personId)}`), noContent, { method: 'DELETE' });
}

export function startTimer(id: string, minutes: number, label: string) {
  return apiRequest(classPath(id, '/timer'), liveSchema.shape.timer.unwrap(), { method: 'PUT', body: { minutes, label } });
}

export function stopTimer(id: string): Promise<void> {
  return apiRequest(classPath(id, '/timer'), noContent, { method: 'DELETE' });
}

export function announce(id: string, text: string) {
  return apiRequest(classPath(id, '/announcements'), liveSchema.shape.announcements.element, { method: 'POST', body: { text } });
}

function questionsPath(id: string, lesson: string, rest = ''): string {
  return classPath(id, `/questions/${encodeURIComponent(lesson)}${rest}`);
}

/** A lesson's questions in the class: the instructor's every answer, a student's own. */
export function getQuestions(id: string, lesson: string, signal?: AbortSignal) {
  return apiRequest(questionsPath(id, lesson), lessonQuestionsSchema, { signal });
}

export function answerQuestion(id: string, lesson: string, question: number, answer: string) {
  return apiRequest(questionsPath(id, lesson, `/${question}/answer`), lessonQuestionsSchema, { method: 'PUT', body: { answer } });
}

/** Reveals (or hides again) the lesson's answer to one question, for the whole class. */
export function revealQuestion(id: string, lesson: string, question: number, revealed: boolean) {
  return apiRequest(questionsPath(id, lesson, `/${question}/revealed`), lessonQuestionsSchema, {
    method: revealed ? 'PUT' : 'DELETE',
  });
}

// ───────────────────────────── staff ──────────────────────────────

/** Who teaches the class: its own instructor, then co-teachers and assistants. */
export function getStaff(id: string, signal?: AbortSignal) {
  return apiRequest(classPath(id, '/staff'), staffListSchema, { signal });
}

/** The class's own instructor adds an instructor account (by name) to its staff. */
export function addStaff(id: string, name: string, role: 'co-teacher' | 'assistant') {
  return apiRequest(classPath(id, '/staff'), staffSchema, { method: 'PUT', body: { name, role } });
}

export function removeStaff(id: string, personId: string): Promise<void> {
  return apiRequest(classPath(id, `/staff/${encodeURIComponent(personId)}`), noContent, { method: 'DELETE' });
}
