import { Module } from '@nestjs/common';
import { ProjectCredentialCommands } from './project-credential-commands.js';

/** What API keys and LLM keys share: permission checks around their commands and lists. */
@Module({ providers: [ProjectCredentialCommands], exports: [ProjectCredentialCommands] })
export class ProjectCredentialsModule {}
