/**
 * The Swagger UI groups in reading order, each with what it holds. A tag used by a route but missing here
 * still appears, after these.
 */
export const API_TAGS: [name: string, description: string][] = [
  [
    'Authentication',
    'Log in for a token (`POST /user/token`), log out. Send the token as `Authorization: api <token>`.',
  ],
  ['Guides', 'Step-by-step guides: read, search, create, edit with `revisionid`, revisions, patrol, translations.'],
  ['Guide steps', 'The steps of a guide: add, edit, reorder, delete; each edit makes a new guide revision.'],
  ['Guide access', 'Private guides: who may read or edit them.'],
  ['Wikis', 'Wiki pages in six namespaces (CATEGORY, ITEM, INFO, …) with wiki text and rendered HTML.'],
  ['Categories', 'The category tree: children, parents, moving a category.'],
  ['Users', 'Accounts, profiles, privileges, registration, badges and reputation.'],
  ['Teams', 'Teams of users.'],
  ['Media', "Images, videos and documents in each user's media manager; uploads as raw bytes or multipart."],
  [
    'Search',
    'Full-text search over guides, wikis and categories (`GET /search/{query}`, ranked, with `<mark>` snippets) and ' +
      'as-you-type suggestions (`GET /suggest/{query}`), on the database itself: SQLite FTS5 or InnoDB FULLTEXT. ' +
      'Only what the caller may read is found; the index follows patrolled edits through the outbox ' +
      '(`npm run search:reindex` rebuilds it).',
  ],
  ['Tags', 'Tags on guides and wikis.'],
  ['Comments', 'Comments on guides, steps and wikis.'],
  ['View history', 'What the caller viewed recently.'],
  ['Icons', 'Built-in icons (default avatar, bullets).'],
  ['Releases', 'Document control: released versions of guides and wikis that readers see.'],
  ['Approvals', 'Approval processes, their assignment to documents, and requests signed with a password.'],
  ['Work log', "Operators' work-log entries, step-form data capture, sign-offs and the CSV export."],
  ['Periodic review', 'Review schedules, due and overdue documents, signed reviews and change requests.'],
  [
    'Quizzes',
    'Survey-builder quizzes with immutable revisions, their guides, wikis and course stages, and graded sessions.',
  ],
  [
    'Training modules',
    'External training modules: SCORM 1.2/2004, cmi5 and xAPI packages imported by upload or URL ' +
      '(checked and extracted by a job: poll the progress), drafts published or rolled back, the player (signed, ' +
      'sandboxed, outside the API origin) and registration commits.',
  ],
  ['Audit', 'The tamper-evident audit chain (Admin).'],
  ['Health', 'Liveness and readiness for load balancers and orchestrators (outside /api/2.0).'],
  ['Operations', 'The API index and Prometheus metrics (METRICS_TOKEN).'],
];
