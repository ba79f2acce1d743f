// One error style (STYLE.md, "Errors"): domain code throws a DomainError carrying a stable
// `code` and a human sentence, plus any details the answer should name (a field, the
// lock's holder). Only the HTTP layer (admin/http.ts) turns a code into a status.
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** A refusal: the request cannot be done as asked; nothing was changed. */
export const refuse = (code: string, message: string, details?: Record<string, unknown>) => new DomainError(code, message, details);

/** `what` names what is missing as a stable word (`note`, `version`): the app says it in the owner's language. */
export const notFound = (message = 'Not found.', what?: string) => new DomainError('not_found', message, what ? { reason: what } : {});
