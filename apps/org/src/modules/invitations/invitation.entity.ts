import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import type { Role } from '@wp/contracts';
import { Organization } from '../tenants/organization.entity.js';
import { Project } from '../tenants/project.entity.js';

/**
 * Stored states of an invitation (docs/org.md § Invitations). `expired` is not stored: a
 * `pending` invitation past `expires_at` is presented as `expired`.
 */
export const INVITATION_STATUSES = ['pending', 'accepted', 'rejected', 'cancelled'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/**
 * An invitation to an organization (`projectId` null) or to one project
 * (docs/api.md § Invitations and members; States and transitions, Invitation rows). The mailed
 * token is 256 random bits; only its SHA-256 is stored. At most one pending invitation per
 * (organization, project, email key).
 */
@Entity('invitation')
@Index('invitation_organization_idx', ['organizationId', 'projectId'])
@Index('invitation_email_pending_idx', ['emailKey'], { where: "status = 'pending'" })
@Index('invitation_one_pending_per_email', ['organizationId', 'projectId', 'emailKey'], {
  unique: true,
  where: "status = 'pending' AND project_id IS NOT NULL",
})
@Index('invitation_one_pending_org_per_email', ['organizationId', 'emailKey'], {
  unique: true,
  where: "status = 'pending' AND project_id IS NULL",
})
export class Invitation {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('int')
  organizationId!: number;

  @Column('int', { nullable: true })
  projectId!: number | null;

  /** As the inviter typed it (trimmed): shown, and where the mail goes. */
  @Column('text')
  email!: string;

  /**
   * The address's identity (`emailKey` of `@wp/identity`, docs/auth.md § Usernames): every
   * spelling of one address — case, width, Unicode normalization, IDNA — has the same key, and
   * the invitee's account email is matched by it.
   */
  @Column('text')
  emailKey!: string;

  /** Organization role granted on acceptance; null for a project-only invitation. */
  @Column('text', { nullable: true })
  orgRole!: Role | null;

  /** Project role granted on acceptance (project invitations only). */
  @Column('text', { nullable: true })
  projectRole!: Role | null;

  @Column('boolean', { default: false })
  projectOnly!: boolean;

  @Column('text')
  status!: InvitationStatus;

  /** SHA-256 hex of the current token (a resend replaces it). */
  @Column('text', { unique: true })
  tokenHash!: string;

  @Column('uuid')
  invitedBy!: string;

  @Column('timestamptz')
  expiresAt!: Date;

  @Column('timestamptz')
  lastSentAt!: Date;

  @Column('int', { default: 1 })
  sendCount!: number;

  /**
   * When the resends still counted by the resend budget were mailed, oldest first (at most
   * `INVITATION_RESEND_LIMIT`; `resend-budget.ts`, docs/org.md § Invitations).
   */
  @Column('timestamptz', { array: true, default: () => "'{}'" })
  resentAt!: Date[];

  @Column('timestamptz', { nullable: true })
  respondedAt!: Date | null;

  /** The user who accepted or rejected. */
  @Column('uuid', { nullable: true })
  respondedBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;
}
