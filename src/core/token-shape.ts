/** What an agent token looks like (format.ts makes them): no crypto here, the agents' config checks the shape. */

export const TOKEN_PREFIX = 'alt_';
/** The shape of a token: the prefix, the 12-character id, the 43-character secret. */
export const TOKEN_PATTERN = /^alt_([a-z2-7]{12})_([A-Za-z0-9_-]{43})$/;
/** What a token looks like, for messages: never a real one. */
export const TOKEN_SHAPE = 'alt_, 12 letters and digits, _ and 43 more characters';
