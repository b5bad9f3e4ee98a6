/**
 * Prefilled request bodies and parameters for the Swagger UI, keyed by `METHOD path`. Each one succeeds
 * against a fresh site with the demo content when run by the demo Admin (checked by
 * test/openapi-examples.e2e-spec.ts): every GET as shown, the writes in document order. A prefilled
 * `revisionid` is the current one on a fresh demo site; after an edit, read the new one with a GET (a stale
 * one is the 409 of an edit conflict).
 */
export interface OperationExample {
  body?: unknown;
  path?: Record<string, string | number>;
  query?: Record<string, string | number>;
}

/**
 * A password in an example: replaced by the demo password where it may be shown (development, the start that
 * seeded the demo), else described as a placeholder to replace (document-polish.ts).
 */
export const PASSWORD_PLACEHOLDER = 'REPLACE-WITH-YOUR-PASSWORD';

/** Path parameters by name, for the operations that do not set their own: demo content that exists. */
export const PARAMETER_EXAMPLES: Record<string, string | number> = {
  approval_processid: 1,
  approval_requestid: 1,
  badgeid: 1,
  commentid: 1,
  context: 'guide',
  contextid: 1,
  course_stageid: 1,
  doc_type: 'GUIDE',
  docid: 1,
  doctype: 'GUIDE',
  document: 1,
  email: 'admin@demo.example',
  employee_id: 'E-1001',
  entryid: 1,
  flagid: 'DANGER',
  guideid: 1,
  id: 1,
  image: 1,
  imageids: '1',
  importid: 1,
  langid: 'en',
  namespace: 'CATEGORY',
  path: 'images/Ab/AbCdEfGhIjKlMnOp.medium.png',
  prdid: 1,
  prsid: 1,
  query: 'iPhone',
  quizRevisionid: 1,
  quizid: 1,
  releaseid: 1,
  search: 'demo',
  searchTerm: 'Getting',
  search_phrase: 'Moderator',
  sessionid: 1,
  signoffid: 1,
  sso_userid: 'sso-1001',
  stepid: 1,
  teamid: 1,
  title: 'iPhone',
  userid: 1,
  video: 1,
  wikiid: 4,
};

/**
 * GET examples that do not answer 2xx on a fresh demo site: the status they answer, and why. Every other GET
 * example answers 2xx (test/openapi-examples.e2e-spec.ts, test/browser/run-browser-test.mjs).
 */
export const NOT_2XX_ON_DEMO: Record<string, { status: number; why: string }> = {
  'get /metrics': { status: 404, why: 'answers 404 unless METRICS_TOKEN is set' },
  'get /api/2.0/users/sso/{sso_userid}': { status: 404, why: 'the demo accounts have no SSO user id' },
  'get /api/2.0/users/employee_id/{employee_id}': { status: 404, why: 'the demo accounts have no employee id' },
  'get /api/2.0/media/videos/{video}': { status: 404, why: 'the demo has no videos' },
  'get /api/2.0/media/documents/{document}': { status: 404, why: 'the demo has no documents' },
  'get /api/2.0/media/files/{path}': { status: 404, why: 'file keys are random: take one from an Image object' },
  'get /api/2.0/comments/{commentid}': { status: 404, why: 'the demo has no comments (POST /comments makes one)' },
  'get /api/2.0/search': { status: 422, why: 'the empty search, always 422: search with GET /search/{query}' },
};

const STEP_LINES = [
  { text: 'Remove the two 3.6 mm pentalobe screws.', bullet: 'black', level: 0 },
  { text: 'Keep track of each screw.', bullet: 'icon_note', level: 1 },
];

export const REQUEST_EXAMPLES: Record<string, OperationExample> = {
  'get /api/2.0/work_log/export.csv': { query: { guideid: 4 } },
  'get /api/2.0/wikis/CATEGORY/{title}/identification': { path: { title: 'iPhone 6' } },
  'get /api/2.0/periodic_review/{doctype}/{docid}': { path: { doctype: 'WIKI', docid: 23 } },
  'get /api/2.0/work_log/{guideid}/suspended': { path: { guideid: 4 } },
  'get /api/2.0/work_log/{entryid}': { path: { entryid: 2 } },
  'delete /api/2.0/wikis/{namespace}/{title}': {
    path: { namespace: 'ITEM', title: 'iOpener' },
    query: { revisionid: 25 },
  },
  'post /api/2.0/wikis/{namespace}/{title}/revert': {
    path: { namespace: 'CATEGORY', title: 'Refrigerator' },
    query: { revisionid: 17 },
  },
  'delete /api/2.0/guides/{guideid}/steps/{stepid}': { path: { guideid: 2, stepid: 5 }, query: { revisionid: 5 } },
  'delete /api/2.0/guides/{guideid}': { path: { guideid: 5 }, query: { revisionid: 15 } },
  'put /api/2.0/guides/{guideid}/public': { path: { guideid: 5 }, query: { revisionid: 15 } },
  'delete /api/2.0/guides/{guideid}/public': { path: { guideid: 3 }, query: { revisionid: 10 } },
  'delete /api/2.0/approvals/{wikiid}': { path: { wikiid: 22 } },
  'post /api/2.0/user/token': {
    body: { email: 'admin@demo.example', password: PASSWORD_PLACEHOLDER },
  },
  'post /api/2.0/users': {
    body: { email: 'newcomer@example.com', username: 'New Comer', password: 'a long passphrase' },
  },
  'post /api/2.0/users/createByEmails': { body: { emails: ['technician@example.com'], privileges: ['Author'] } },
  'post /api/2.0/users/unique_usernames': { body: { unique_usernames: ['new_comer'], reserve: false } },
  'patch /api/2.0/users/{userid}': { path: { userid: 1 }, body: { summary: 'Fixes phones on weekends.' } },
  'post /api/2.0/teams': { body: { name: 'Repair Café', description: 'Volunteers who fix things on Saturdays.' } },
  'put /api/2.0/wikis/CATEGORY/{title}/parent': { path: { title: 'Dishwasher' }, body: { parent: 'Appliances' } },
  'put /api/2.0/wikis/{namespace}/{title}/tag': {
    path: { namespace: 'CATEGORY', title: 'iPhone' },
    body: { tag: 'apple' },
  },
  'delete /api/2.0/wikis/{namespace}/{title}/tag': {
    path: { namespace: 'CATEGORY', title: 'iPhone' },
    body: { tag: 'apple' },
  },
  'post /api/2.0/wikis': {
    body: {
      namespace: 'CATEGORY',
      parent: 'Android Phone',
      title: 'Google Pixel 8',
      contents: "Google's phone of 2023.\n\n== Repairs ==\nThe display and the battery can be replaced.",
      langid: 'en',
    },
  },
  'patch /api/2.0/wikis/{namespace}/{title}': {
    path: { namespace: 'CATEGORY', title: 'Refrigerator' },
    query: { revisionid: 17 },
    body: { description: 'Fridges, freezers and fridge-freezers.' },
  },
  'post /api/2.0/comments/{context}/{contextid}': {
    path: { context: 'guide', contextid: 1 },
    body: { text: 'Worked for me: the suction handle helps a lot.', langid: 'en' },
  },
  'patch /api/2.0/comments/{commentid}': { path: { commentid: 1 }, body: { text: 'Worked for me, twice.' } },
  'post /api/2.0/guides/steps/lines/preview': { body: { lines: STEP_LINES } },
  'post /api/2.0/guides/{guideid}/steps': {
    path: { guideid: 1 },
    body: { title: 'Check the screws', lines: STEP_LINES },
  },
  'patch /api/2.0/guides/{guideid}/steps/{stepid}': {
    path: { guideid: 1, stepid: 1 },
    query: { revisionid: 1 },
    body: { title: 'Remove the pentalobe screws' },
  },
  'put /api/2.0/guides/{guideid}/steporder': {
    path: { guideid: 3 },
    query: { revisionid: 10 },
    body: { stepids: [7, 6] },
  },
  'post /api/2.0/guides': {
    body: {
      category: 'iPhone 6',
      type: 'replacement',
      subject: 'Rear Camera',
      summary: 'Replace the rear camera of an iPhone 6.',
      introduction: 'A blurry or black photo usually means the camera module has failed.',
      difficulty: 'Moderate',
      time_required_min: 1200,
      time_required_max: 2400,
      public: true,
      tools: [{ name: 'Spudger' }, { name: 'Pentalobe P2 Screwdriver', quantity: 1 }],
      parts: [{ name: 'iPhone 6 Rear Camera', summary: 'The 8 MP rear camera module.' }],
      langid: 'en',
    },
  },
  'patch /api/2.0/guides/{guideid}': {
    path: { guideid: 1 },
    query: { revisionid: 3 },
    // approval_processid (Admin only): releases of guide 1 now wait for the demo's two-stage process.
    body: { summary: 'Open the iPhone 6 and lift the display assembly safely.', approval_processid: 1 },
  },
  'put /api/2.0/guides/{guideid}/completed': { path: { guideid: 1 }, body: { langid: 'en' } },
  'put /api/2.0/user/favorites/guides/{guideid}': { path: { guideid: 1 }, body: { langid: 'en' } },
  'put /api/2.0/guides/{guideid}/tag': { path: { guideid: 1 }, body: { tag: 'screen' } },
  'delete /api/2.0/guides/{guideid}/tag': { path: { guideid: 1 }, body: { tag: 'screen' } },
  // Releases, in document order. The demo has releases 1 and 2 (wiki pages Spudger and Tweezers, pending), so the
  // release of guide 1 (under process 1 since the PATCH above: pending) is release 3.
  'post /api/2.0/guides/releases': {
    body: { guideid: 1, type: 'major', title: 'Release v1.0', notes: 'Checked against the current parts list.' },
  },
  'post /api/2.0/guides/duplicateReleases': { body: { releaseid: 3, guideids: [2, 4] } },
  'patch /api/2.0/guides/releases/{releaseid}': {
    path: { releaseid: 3 },
    body: { notes: 'Checked against the current parts list and the new adhesive strips.' },
  },
  'post /api/2.0/wikis/{wikiid}/releases': {
    path: { wikiid: 21 },
    body: { type: 'minor', notes: 'Wording of the licence paragraph.' },
  },
  // Approvals: process 1 is the demo's two-stage process; request 2 waits for the demo Admin's signature.
  'patch /api/2.0/approvals/process/{approval_processid}': {
    path: { approval_processid: 1 },
    query: { revisionid: 1 },
    body: { name: 'Document control (Moderator, then Admin)' },
  },
  'post /api/2.0/approvals/process': { body: { name: 'Line supervisor sign-off', stages: [{ userid: 2 }] } },
  'put /api/2.0/approvals/{wikiid}/{approval_processid}': {
    path: { wikiid: 22, approval_processid: 3 },
    body: { release_type: 'major' },
  },
  'post /api/2.0/approvals/request/sign/{approval_requestid}': {
    path: { approval_requestid: 2 },
    body: { decision: 'approve', password: PASSWORD_PLACEHOLDER, note: 'Matches the tool catalogue.' },
  },
  // Work log: entry 1 (the demo User's) waits for sign-off 1, which the Admin may sign as a member of the demo
  // team; entry 2 is the Admin's, on guide 4, whose step 9 has the form (fields 1-4) that asks for the sign-off.
  // POST /work_log creates entry 3.
  'post /api/2.0/work_log/{entryid}/signoffs': { path: { entryid: 2 }, body: { stepid: 9 } },
  'post /api/2.0/work_log/signoffs/{signoffid}/sign': {
    path: { signoffid: 1 },
    body: { decision: 'approve', password: PASSWORD_PLACEHOLDER, note: 'Filter replaced; pump runs freely.' },
  },
  'post /api/2.0/work_log': { body: { guideid: 4, workorderid: 'WO-1003' } },
  'post /api/2.0/work_log/{entryid}/cancel': {
    path: { entryid: 3 },
    body: { reason: 'Opened for the wrong machine.' },
  },
  'put /api/2.0/work_log/{entryid}/stepData': {
    path: { entryid: 2 },
    body: { fields: { '1': 'clean', '2': 120, '3': true, '4': 'No coins found.' }, stepid: 9 },
  },
  // Periodic review: the demo schedule 1 holds document 1 (Getting Started), open for review.
  'post /api/2.0/periodic_review/review': {
    body: { prdid: 1, outcome: 'no_changes', password: PASSWORD_PLACEHOLDER },
  },
  'post /api/2.0/periodic_review': {
    body: {
      name: 'Quarterly safety review',
      recurrence: { type: 'interval', days: 90 },
      completion_window_days: 14,
      default_reviewer_userid: 2,
    },
  },
  'post /api/2.0/periodic_review/documents': { body: { prsid: 2, documents: [{ doctype: 'GUIDE', docid: 2 }] } },
  'delete /api/2.0/periodic_review/documents': { body: { prdids: [2] } },
  // Quizzes, in document order: the demo quiz is quiz 1 on guide 1; the demo Author's open attempt is session 1.
  'post /api/2.0/quizzes/attempt': { body: { quizid: 1, guideid: 1 } },
  'post /api/2.0/quizzes/sessions/save': { body: { sessionid: 2, answers: { first_step: 'Power it off' } } },
  'post /api/2.0/quizzes/sessions/submit': {
    body: {
      sessionid: 2,
      answers: {
        tools: ['Spudger', 'Suction handle', 'Pentalobe P2 Screwdriver'],
        battery_first: true,
        screw_count: '2',
      },
    },
  },
  'post /api/2.0/quizzes/sessions/cancel': { body: { sessionid: 1 } },
  'post /api/2.0/quizzes/sessions/bulkCancel': { body: { sessionids: [1, 2] } },
  'patch /api/2.0/quizzes/sessions/userInvalidateAll/{userid}': {
    path: { userid: 4 },
    body: { reason: 'Trained on a superseded procedure; please take the quiz again.' },
  },
  'post /api/2.0/quizzes/associations': { body: { guideid: 1, quizids: [1] } },
  'delete /api/2.0/quizzes/associations': { body: { guideid: 1, quizids: [1] } },
  'post /api/2.0/quizzes/attach/guide': { body: { quizid: 1, guideid: 1 } },
  'post /api/2.0/quizzes/attach/wiki': { body: { quizid: 1, wikiid: 1 } },
  'post /api/2.0/quizzes': {
    body: {
      title: 'Battery safety',
      guideid: 1,
      default_passing_score: 80,
      survey: {
        pages: [
          {
            name: 'page1',
            elements: [
              {
                type: 'radiogroup',
                name: 'swollen_battery',
                title: 'The battery is swollen. What do you do?',
                choices: ['Puncture it', 'Stop and follow the swollen battery procedure'],
                correctAnswer: 'Stop and follow the swollen battery procedure',
              },
            ],
          },
        ],
      },
    },
  },
  'post /api/2.0/quizzes/getQuizzes': {
    body: { search: 'iPhone', filters: { status: 'active' }, sort: { property: 'title', direction: 'ASC' }, limit: 20 },
  },
  'post /api/2.0/quizzes/import': {
    body: {
      category: 'Tools',
      survey: {
        title: 'Spudger basics',
        pages: [
          {
            name: 'page1',
            elements: [
              {
                type: 'checkbox',
                name: 'spudger_uses',
                title: 'What is a spudger for?',
                choices: ['Prying clips', 'Disconnecting connectors', 'Driving screws'],
                correctAnswer: ['Prying clips', 'Disconnecting connectors'],
              },
            ],
          },
        ],
      },
    },
  },
  'post /api/2.0/quizzes/delete': { body: { quizids: [3] } },
  'post /api/2.0/quizzes/questions': {
    body: {
      quizid: 2,
      questions: [
        { external_question_uid: 'swollen_battery', title: 'A battery is swollen. What do you do?' },
        { external_question_uid: 'tape', title: 'Is new adhesive needed?', type: 'boolean', correctAnswer: true },
      ],
    },
  },
  // Training modules: the demo module 1 has a current version and a draft with a package ready to publish;
  // the demo Admin has a registration of it (DEMO_REGISTRATIONID). POST drafts creates module 2.
  'post /api/2.0/external_training_modules/drafts': {
    body: { title: 'Swollen batteries: what to do', description: 'Spotting, handling and storing swollen cells.' },
  },
  'put /api/2.0/external_training_modules/{id}/current': { path: { id: 1 }, body: {} },
  'put /api/2.0/external_training_modules/{id}/draft': {
    path: { id: 2 },
    body: { title: 'Swollen batteries (workshop edition)', mastery_score: 80, launch_method: 'iframe' },
  },
  'put /api/2.0/external_training_modules/registrations/{registrationid}': {
    path: { registrationid: '00000000-0000-4000-8000-00000000d001' },
    body: { status: 'incomplete', location: 'safety-rules', suspend_data: 'step=2' },
  },
  'post /api/2.0/external_training_modules/imports': { body: { moduleid: 2 } },
  'post /api/2.0/external_training_modules/imports/{importid}/start/byUrl': {
    path: { importid: 3 },
    body: { url: 'https://packages.example.com/swollen-batteries.zip' },
  },
};
