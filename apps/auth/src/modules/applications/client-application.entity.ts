import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A client application (docs/api.md § Authentication 1): what an `Api-Key` identifies. The key
 * itself is never stored, only its SHA-256 hex hash; `keyPrefix` helps operators recognise it.
 */
@Entity('client_application')
export class ClientApplication {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  name!: string;

  @Column({ type: 'char', length: 64, unique: true })
  keyHash!: string;

  @Column('text')
  keyPrefix!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  revokedAt!: Date | null;

  /**
   * Exact redirect URIs allowed for provider sign-ins (`/oauth/authorize`); empty: none
   * (docs/auth.md § Sign-in with an OpenID provider).
   */
  @Column('text', { array: true, default: () => "'{}'" })
  redirectUris!: string[];
  /** Passkeys: the application's relying party id; null = `WEBAUTHN_RP_ID` (docs/auth.md § Passkeys). */
  @Column('text', { nullable: true })
  webauthnRpId!: string | null;

  /** Passkeys: origins its ceremonies may come from; null = `WEBAUTHN_ORIGINS`. */
  @Column('text', { array: true, nullable: true })
  webauthnOrigins!: string[] | null;
}
