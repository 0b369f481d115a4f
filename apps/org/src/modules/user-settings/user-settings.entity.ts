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
import { Organization } from '../tenants/organization.entity.js';
import { Project } from '../tenants/project.entity.js';

/** `theme` values of the contract (docs/api.md § User settings object). */
export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/**
 * One user's settings for one client application (`client`, e.g. `web`, `ios`): theme,
 * language, sidebar state, last-selected organization and project, onboarding steps
 * (docs/org.md § User settings). Pinned projects are shared by every client: `PinnedProject`.
 *
 * A user without a row has the defaults (`light`, `en`, sidebar open, nothing selected, no
 * onboarding step); reads never write. The current ids reference their rows with
 * `ON DELETE SET NULL`, so a deleted project stops being current in the deleting transaction.
 */
@Entity('user_settings')
// the `SET NULL` of project and organization deletes looks rows up by these
@Index('user_settings_current_project_idx', ['currentProjectId'], {
  where: 'current_project_id IS NOT NULL',
})
@Index('user_settings_current_organization_idx', ['currentOrganizationId'], {
  where: 'current_organization_id IS NOT NULL',
})
export class UserSettings {
  @PrimaryColumn('uuid')
  userId!: string;

  /** `^[a-z0-9_-]{1,32}$`. */
  @PrimaryColumn('varchar', { length: 32 })
  client!: string;

  @Column('text', { default: 'light' })
  theme!: Theme;

  /** Canonical BCP 47 tag (`Intl.getCanonicalLocales`). */
  @Column('text', { default: 'en' })
  language!: string;

  @Column('boolean', { default: true })
  sidebarOpen!: boolean;

  @Column('int', { nullable: true })
  currentOrganizationId!: number | null;

  @Column('int', { nullable: true })
  currentProjectId!: number | null;

  /** Onboarding steps of this client: `{stepId: any JSON value}`. */
  @Column('jsonb', { default: {} })
  onboarding!: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => Organization, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'current_organization_id' })
  currentOrganization?: Relation<Organization>;

  @ManyToOne(() => Project, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'current_project_id' })
  currentProject?: Relation<Project>;
}
