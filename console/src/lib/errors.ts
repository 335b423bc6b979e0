/**
 * What the console says when something fails: a sentence a person understands,
 * never a raw server code such as `[error-invalid-user]`. The server's error
 * codes (its `errorType`, a `[code]` at the end of its text, or a bare code such
 * as `room-closed`) are turned into sentences here; a server text with no code
 * known here is shown without its code. Pure (unit-tested in console/test).
 */
import { ApiError } from '../api/client.js';

/** Where the error happened, when the same code means different things on different pages. */
export type ErrorContext = 'agents' | 'managers' | 'users' | 'transfer' | 'close' | 'chat' | 'login' | 'permissions';

const SENTENCES: Record<string, string | ((context: ErrorContext | undefined, reason: string) => string)> = {
  'error-invalid-user': (context) =>
    context === 'agents' || context === 'managers'
      ? 'No user with that username. Create the user first on the Users page.'
      : 'That user does not exist (any more). Reload the page to see the current list.',
  'error-room-not-found': 'This chat is no longer yours: it was transferred to someone else or closed.',
  'error-invalid-room': 'This chat does not exist any more.',
  'room-closed': 'This chat is already closed.',
  'error-room-closed': 'This chat is already closed.',
  'error-user-is-offline': 'That agent is not available right now. Choose an available agent or a department.',
  'error-selected-agent-room-agent-are-same': 'That agent already serves this chat. Choose someone else.',
  'error-forwarding-chat-same-department': 'The chat is already in that department. Choose another department or an agent.',
  'error-no-agents-online-in-department': 'Nobody in that department is available right now. Choose another department or an agent.',
  'no-agent-online': 'No agent is available right now.',
  'error-user-not-belong-to-department': 'That agent is not in the chosen department.',
  'error-invalid-department': 'That department does not exist any more. Reload the page.',
  'error-department-not-found': 'That department does not exist any more. Reload the page.',
  'error-department-has-open-rooms': 'This department still has open chats. Close or transfer them first.',
  'error-inquiry-taken': 'Another agent has already taken this chat.',
  'error-manual-on-hold-disabled': 'Putting chats on hold is turned off on this server (Livechat_allow_manual_on_hold).',
  'error-room-is-already-on-hold': 'This chat is already on hold.',
  'error-room-not-on-hold': 'This chat is not on hold any more.',
  'error-unserved-rooms-cannot-be-placed-onhold': 'Only a chat an agent serves can be put on hold.',
  'error-contact-sent-last-message-so-cannot-place-on-hold': 'The visitor wrote last: answer before putting the chat on hold.',
  'error-max-number-simultaneous-chats-reached': 'You are at your chat limit: close or hold another chat first.',
  Not_authorized: 'Only the agent serving this chat (or a manager) can do this.',
  'error-comment-is-required': 'A closing comment is required: say in a few words how the chat ended.',
  'error-tags-must-be-assigned-before-closing-chat': 'This chat needs a tag before it is closed: choose one below.',
  'error-invalid-tags': (_context, reason) => `${reason.replace(/^Invalid tags:\s*/i, 'These tags are not offered here: ')}. Choose tags from the list.`,
  'agent-not-found': 'That user is not an agent. Make them an agent on the Agents page first.',
  'error-not-allowed-to-close-conversation': 'You may close only the chats you serve.',
  'error-unauthorized': 'You do not have permission to do this. Ask an administrator.',
  'error-not-allowed': 'You do not have permission to do this. Ask an administrator.',
  'error-action-not-allowed': (_context, reason) =>
    /active admin/i.test(reason)
      ? 'You cannot remove or deactivate the last active administrator.'
      : /invalid role/i.test(reason)
        ? 'One of the chosen roles does not exist.'
        : 'You are not allowed to do this.',
  'error-field-unavailable': (_context, reason) => {
    const taken = /^(.*) is already in use/.exec(reason)?.[1];
    return taken ? `“${taken}” is already in use. Choose another one.` : 'That username or e-mail address is already in use.';
  },
  'error-input-is-not-a-valid-field': 'That username is not valid. Use letters, digits, dots, dashes and underscores, without spaces.',
  'error-invalid-email': 'That e-mail address is not valid.',
  'error-invalid-name': 'The name cannot be empty.',
  'error-too-many-requests': 'Too many attempts. Wait a moment and try again.',
  'error-invalid-permission': 'That permission does not exist on this server.',
  'error-invalid-role': 'One of the chosen roles does not exist.',
  'invalid-params': (_context, reason) => `Something in the form is missing or not valid (${reason}).`,
};

/** The code of a server error: its errorType, a trailing `[code]`, or a bare code as the whole text. */
export function errorCode(error: { message: string; errorType?: string }): string | undefined {
  if (error.errorType) return error.errorType;
  const bracket = /\[([a-z0-9-]+)\]\s*$/i.exec(error.message);
  if (bracket) return bracket[1];
  if (Object.hasOwn(SENTENCES, error.message)) return error.message;
  return /^[a-z]+(?:-[a-z]+)+$/.test(error.message) ? error.message : undefined;
}

function sentence(text: string): string {
  const trimmed = text.trim().replace(/\s*:\($/, '');
  if (!trimmed) return 'Something went wrong. Try again.';
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** The sentence to show for a failure of any kind. */
export function errorText(error: unknown, context?: ErrorContext): string {
  if (!(error instanceof ApiError)) {
    return error instanceof Error && error.message ? sentence(error.message) : 'Something went wrong. Try again.';
  }
  if (error.status === 0) return error.message;
  const code = errorCode(error);
  // The server's reason without its code: "ann is already in use :( [error-field-unavailable]" → "ann is already in use :(".
  const reason = error.message.replace(/\s*\[[a-z0-9-]+\]\s*$/i, '').trim();
  const known = code ? SENTENCES[code] : undefined;
  if (typeof known === 'string') return known;
  if (known) return known(context, reason);
  if (code?.startsWith('error-password-policy')) return `The password is not strong enough: ${sentence(reason).replace(/^./, (c) => c.toLowerCase())}`;
  if (error.status === 403) return SENTENCES['error-unauthorized'] as string;
  if (error.status === 404) return 'This server does not offer this yet. Update Parley and try again.';
  if (error.status === 429) return SENTENCES['error-too-many-requests'] as string;
  if (error.status >= 500) return 'The server had a problem. Try again in a moment.';
  // A bare code no sentence is known for: say what happened without it.
  if (code && reason === code) return 'The server refused this request. Try again, or reload the page.';
  return sentence(reason);
}

/**
 * Does this failure mean the chat left the caller (transferred to someone else,
 * or no longer readable)? Then the conversation says so once and stops polling.
 */
export function isChatGone(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 403) return true;
  const code = errorCode(error);
  return code === 'error-room-not-found' || code === 'error-invalid-room';
}
