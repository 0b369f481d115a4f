import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A pending sign-in at a provider, between `/oauth/authorize` and `/oauth/callback`: the
 * platform's own `state` (stored as SHA-256), `nonce` and PKCE verifier, and what the client
 * application asked for. Single use (deleted when the callback reads it), short lived.
 */
@Entity('sso_request')
@Index('sso_request_expires_at', ['expiresAt'])
export class SsoRequest {
  /** SHA-256 hex of the state sent to the provider. */
  @PrimaryColumn({ type: 'char', length: 64 })
  stateHash!: string;

  @Column('uuid')
  connectionId!: string;

  /** The client application (`client_id`). */
  @Column('uuid')
  appId!: string;

  @Column('text')
  redirectUri!: string;

  /** The client's own `state`, returned to it unchanged. */
  @Column('text')
  clientState!: string;

  /** The client's PKCE `code_challenge` (S256), checked at the code exchange. */
  @Column('text')
  codeChallenge!: string;

  @Column('text')
  nonce!: string;

  /** The platform's PKCE verifier towards the provider. */
  @Column('text')
  codeVerifier!: string;

  @Column('timestamptz')
  expiresAt!: Date;
}
