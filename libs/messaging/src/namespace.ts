import { Inject, Injectable } from '@nestjs/common';
import type { EventStream } from '@wp/contracts';

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');

export interface MessagingOptions {
  /** `EVENTS_NAMESPACE`: prefixes subjects and stream names (test isolation). */
  namespace: string;
  /** This service's name, used for durable consumer names and the RPC queue group. */
  service: string;
}

/** Applies `EVENTS_NAMESPACE` to subjects and stream names. */
@Injectable()
export class Namespacer {
  constructor(@Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions) {}

  subject(subject: string): string {
    return this.options.namespace ? `${this.options.namespace}.${subject}` : subject;
  }

  /** Strips the namespace from a received subject. */
  unprefix(subject: string): string {
    const ns = this.options.namespace;
    return ns && subject.startsWith(`${ns}.`) ? subject.slice(ns.length + 1) : subject;
  }

  stream(stream: EventStream): string {
    return this.options.namespace ? `${this.options.namespace}_${stream}` : stream;
  }

  /** Durable consumer names may not contain `.`. */
  durable(name: string): string {
    return name.replace(/[^A-Za-z0-9_-]/g, '_');
  }
}
