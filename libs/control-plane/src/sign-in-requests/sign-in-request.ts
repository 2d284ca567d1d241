/** A single sign-on request under way: what its callback must be checked against. */
export interface SignInRequest {
  /** SHA-256 of the request's `state`: the key; the state itself is kept by the browser only. */
  readonly stateHash: Buffer;
  readonly codeVerifier: string;
  readonly nonce: string;
  /** The page to go to once signed in (already checked to be a path of this application). */
  readonly nextPath: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** Where single sign-on requests wait for their callback; each is taken once. */
export interface SignInRequestStore {
  /** Keeps a request, and forgets those that expired before `request.createdAt`. */
  save(request: SignInRequest): Promise<void>;
  /** Removes and returns the request with this state hash (expired or not), or null. */
  take(stateHash: Buffer): Promise<SignInRequest | null>;
}
