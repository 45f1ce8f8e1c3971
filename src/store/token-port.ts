/**
 * The TokenStore port: the agents' tokens, kept in the same store as the questions (Redis or the embedded file), so
 * every serve replica accepts the same tokens. Only a token's SHA-256 is kept, never the token: `core/token-format.ts`
 * makes and hashes them.
 */

/** One token as kept: who it is for, what it reaches. Never the token itself. */
export interface TokenRecord {
  /** The public part of the token (`alt_<id>_…`): how it is found, named in lists and logs. */
  readonly id: string;
  /** Who or what it is for (`alice`, `ci`): unique among the live tokens. */
  readonly name: string;
  /** SHA-256 of the whole token, lower-case hex. */
  readonly hash: string;
  /** Project patterns (routing's `*` / `**`) the token reaches; at least one. */
  readonly patterns: readonly string[];
  readonly createdAt: number;
  /** When serve stops accepting it (`token create --expires`); never, when absent. */
  readonly expiresAt?: number;
  /**
   * It also signs a person in to the web inbox (`token create --web`): they see and answer the projects it reaches,
   * under its name. Absent: agents only.
   */
  readonly web?: true;
  /** When a request last authenticated with it (recorded at most once a minute per serve replica). */
  readonly lastUsedAt?: number;
}

export interface TokenStore {
  /** Keep a new token. False, and nothing kept, when a live token already has this name. */
  create(record: TokenRecord): Promise<boolean>;
  /** The token with this id, if it is live. */
  get(id: string): Promise<TokenRecord | undefined>;
  /** Every live token, oldest first. */
  list(): Promise<TokenRecord[]>;
  /** Revoke the token with this name or id at once. Returns the revoked record, undefined when none matched. */
  revoke(nameOrId: string): Promise<TokenRecord | undefined>;
  /** Record that the token was used at `at`. Does nothing for a revoked token. */
  touch(id: string, at: number): Promise<void>;
}
