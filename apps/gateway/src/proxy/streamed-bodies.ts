import type { IncomingMessage } from 'node:http';
import { JsonDepthLimit, type DomainError } from '@wp/http';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * A JSON body on its way through the gateway: the client's bytes, unchanged, through a byte
 * scan of their nesting ({@link JsonDepthLimit}). Past the limit the stream fails — the
 * upstream request it feeds is abandoned — and, once {@link answerRefusalsOn} has given it the
 * reply, the client gets 400 `VALIDATION_FAILED` at once. The client's request stream is
 * drained, not destroyed, so that answer can be sent.
 */
class ScannedJsonBody extends JsonDepthLimit {
  private reply?: FastifyReply;
  private refusal?: DomainError;

  constructor(payload: IncomingMessage, limit: number) {
    super(limit);
    payload.on('error', (error) => this.destroy(error));
    this.once('error', (error) => {
      if (!(error instanceof JsonDepthLimit.Refusal)) return;
      payload.unpipe(this);
      payload.resume();
      this.refusal = error;
      this.answer();
    });
    payload.pipe(this);
  }

  /**
   * The reply the refusal is answered on (the proxy then finds it sent and stays quiet).
   * @returns whether it has been answered already
   */
  answerRefusalsOn(reply: FastifyReply): boolean {
    this.reply = reply;
    return this.answer();
  }

  private answer(): boolean {
    const { reply, refusal } = this;
    if (reply === undefined || refusal === undefined || reply.sent) return false;
    void reply
      .status(refusal.status)
      .header('content-type', 'application/json; charset=utf-8')
      .header('connection', 'close')
      .send({ errors: refusal.toItems() });
    return true;
  }
}

/**
 * The proxy routes' body parsers, instead of @fastify/http-proxy's own (`proxyPayloads: false`):
 * every body is handed on as the stream it arrives as, never buffered or parsed; a JSON body's
 * nesting is checked on the way (docs/decisions.md § Wire format, "Nesting depth"). A refusal
 * is answered by the gateway itself, before the proxy's error callback could see the abandoned
 * upstream request (reply-from answers nothing on a reply already sent).
 */
export function installStreamedBodies(scope: FastifyInstance, maxJsonDepth: number): void {
  scope.addContentTypeParser('application/json', (_request, payload, done) =>
    done(null, new ScannedJsonBody(payload, maxJsonDepth)),
  );
  scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  scope.addHook('preHandler', (request, reply, done) => {
    // Answered here (a refusal in the first bytes): the request ends without `done`.
    if (request.body instanceof ScannedJsonBody && request.body.answerRefusalsOn(reply)) return;
    done();
  });
}
