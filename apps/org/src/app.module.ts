import { Module, type DynamicModule } from '@nestjs/common';
import { AppConfigModule } from '@wp/config';
import { PlatformModule } from '@wp/platform';
import { ORG_CONFIG, type OrgConfig } from './config/org.config.js';
import { ORG_ENTITIES } from './database/entities.js';
import { ORG_MIGRATIONS } from './migrations/index.js';
import { AccessModule } from './modules/access/access.module.js';
import { ApiKeysModule } from './modules/api-keys/api-keys.module.js';
import { AuditModule } from './modules/audit/audit.module.js';
import { IdentityModule } from './modules/identity/identity.module.js';
import { InvitationsModule } from './modules/invitations/invitations.module.js';
import { LlmKeysModule } from './modules/llm-keys/llm-keys.module.js';
import { MembersModule } from './modules/members/members.module.js';
import { MembershipsModule } from './modules/memberships/memberships.module.js';
import { OrganizationsModule } from './modules/organizations/organizations.module.js';
import { ProjectMembersModule } from './modules/project-members/project-members.module.js';
import { ProjectsModule } from './modules/projects/projects.module.js';
import { SecretsModule } from './modules/secrets/secrets.module.js';
import { SecurityPolicyModule } from './modules/security-policy/security-policy.module.js';
import { SentinelPassesModule } from './modules/sentinel-passes/sentinel-passes.module.js';
import { SsoModule } from './modules/sso/sso.module.js';
import { TenantsModule } from './modules/tenants/tenants.module.js';
import { WebhooksModule } from './modules/webhooks/webhooks.module.js';
import { UserSettingsModule } from './modules/user-settings/user-settings.module.js';
import { DirectoryModule } from './modules/users/directory.module.js';

/**
 * The org service ({org_url}): organizations, projects, members, invitations, settings, the
 * organization security policy and audit log.
 */
@Module({})
export class OrgAppModule {
  static forRoot(config: OrgConfig): DynamicModule {
    return {
      module: OrgAppModule,
      imports: [
        AppConfigModule.forRoot(ORG_CONFIG, config),
        PlatformModule.forRoot({
          service: 'org',
          confineAgents: true,
          config,
          database: {
            url: config.ORG_DATABASE_URL,
            entities: ORG_ENTITIES,
            migrations: ORG_MIGRATIONS,
          },
        }),
        SecretsModule,
        TenantsModule,
        AccessModule,
        WebhooksModule,
        AuditModule,
        IdentityModule,
        MembershipsModule,
        DirectoryModule,
        OrganizationsModule,
        MembersModule,
        InvitationsModule,
        ProjectsModule,
        ProjectMembersModule,
        ApiKeysModule,
        LlmKeysModule,
        UserSettingsModule,
        SentinelPassesModule,
        SecurityPolicyModule,
        SsoModule,
      ],
    };
  }
}
