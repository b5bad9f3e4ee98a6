import { defineEvent } from '../../platform/events/domain-event';
import type { SessionDto } from './dto/quiz-response.dto';

const session = (s: SessionDto): [string, number] => ['quiz_session', s.sessionid];

/** Quiz Submitted (docs/enterprise/webhooks-events.md); payload: the Session as submitted. */
export const QuizSessionSubmitted = defineEvent<SessionDto>('quiz.session_submitted', session);

/** The outcome of a submission, published with it (payload: the Session). */
export const QuizPassed = defineEvent<SessionDto>('quiz.passed', session);
export const QuizFailed = defineEvent<SessionDto>('quiz.failed', session);
