/** Answers one request body with a reply body (both JSON text). */
export type RpcResponder = (body: string) => Promise<string>;

/**
 * Request/reply as the rest of the platform sees it (docs/architecture.md § Two modes): NATS
 * request/reply with a queue group in services mode, the platform database (`rpc_request` /
 * `rpc_response` rows woken by `NOTIFY`) in embedded mode. `RpcClient` and `RpcServer` validate
 * and encode on top. Exactly one responder of the serving service answers each request.
 */
export abstract class RpcTransport {
  /**
   * Sends `body` to a responder of `subject` (a catalog name, before namespacing).
   * @returns the reply body
   * @throws Error when no responder answers within `timeoutMs` or the transport fails
   */
  abstract request(subject: string, body: string, timeoutMs: number): Promise<string>;
  /** Answers requests on `subject` with `respond`, from now until shutdown. */
  abstract serve(subject: string, respond: RpcResponder): Promise<void>;
}
