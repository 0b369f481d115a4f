// Emits traces with the real Langfuse OpenTelemetry stack (@langfuse/otel's span processor in
// the OpenTelemetry Node SDK) to an analytics service, then prints {"traceId": "..."}.
// Runs as its own Node process: the OTLP HTTP exporter loads `http` with a dynamic import(),
// which Jest's CommonJS sandbox cannot serve without --experimental-vm-modules.
// Usage: node otel-emit.cjs '<json: {baseUrl, publicKey, secretKey, scenario: "json"|"proto"}>'
'use strict';
const { LangfuseSpanProcessor } = require('@langfuse/otel');
const {
  propagateAttributes,
  startActiveObservation,
  startObservation,
} = require('@langfuse/tracing');
const { NodeSDK } = require('@opentelemetry/sdk-node');
const { OTLPTraceExporter: ProtoExporter } = require('@opentelemetry/exporter-trace-otlp-proto');

async function main() {
  const { baseUrl, publicKey, secretKey, scenario } = JSON.parse(process.argv[2]);
  const basic = `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString('base64')}`;
  const processor =
    scenario === 'proto'
      ? new LangfuseSpanProcessor({
          exporter: new ProtoExporter({
            url: `${baseUrl}/api/public/otel/v1/traces`,
            headers: { Authorization: basic },
            compression: 'gzip',
          }),
          exportMode: 'immediate',
        })
      : new LangfuseSpanProcessor({ publicKey, secretKey, baseUrl, exportMode: 'immediate' });
  const sdk = new NodeSDK({ spanProcessors: [processor], autoDetectResources: false });
  sdk.start();
  let traceId;
  if (scenario === 'proto') {
    traceId = await startActiveObservation('proto-root', async (root) => {
      startObservation(
        'proto-generation',
        { model: 'claude-3-5-sonnet', usageDetails: { input: 10, output: 2 } },
        { asType: 'generation' },
      ).end();
      root.update({ input: 'hello', output: 'world' });
      return root.traceId;
    });
  } else {
    traceId = await propagateAttributes(
      {
        userId: 'otel-user',
        sessionId: 'otel-session',
        tags: ['otel', 'v5'],
        traceName: 'agent-run',
      },
      () =>
        startActiveObservation('agent-run', async (root) => {
          root.update({ input: { task: 'sum' } });
          const generation = startObservation(
            'llm-call',
            {
              model: 'gpt-4o',
              modelParameters: { temperature: 0 },
              input: [{ role: 'user', content: '1+1' }],
              usageDetails: { input: 200, output: 20 },
            },
            { asType: 'generation' },
          );
          generation.update({ output: { content: '2' } }).end();
          const tool = startObservation(
            'calculator',
            { input: { a: 1, b: 1 } },
            { asType: 'tool' },
          );
          tool.update({ output: 2 }).end();
          root.update({ output: { result: 2 } });
          return root.traceId;
        }),
    );
  }
  await processor.forceFlush();
  await sdk.shutdown();
  process.stdout.write(JSON.stringify({ traceId }) + '\n');
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + '\n');
  process.exit(1);
});
