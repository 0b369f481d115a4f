import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { freePort, waitFor, waitForPort } from '@wp/testing';

const BINARY = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(
  (p) => existsSync(p),
);

const PROD = join(__dirname, '..', '..', '..', 'deploy', 'k8s', 'overlays', 'prod');

/**
 * The production cluster's settings, read from the prod overlay itself (the one source): the
 * nats StatefulSet's `replicas` and container `args` (deploy/k8s/overlays/prod/nats-cluster.yaml)
 * and `NATS_STREAM_REPLICAS` of the `platform-config` literals (kustomization.yaml).
 * @throws when an arg is one this stand-in does not know how to place on one machine, so a
 *   change to the overlay is seen here rather than silently left out
 */
export function prodNatsSettings(): {
  nodes: number;
  clusterName: string;
  streamReplicas: number;
  /** Flags kept as they are in production (`--jetstream`). */
  flags: string[];
} {
  const docs = parseAllDocuments(readFileSync(join(PROD, 'nats-cluster.yaml'), 'utf8')).map((d) =>
    d.toJS(),
  );
  const set = docs.find((d) => d?.kind === 'StatefulSet' && d.metadata?.name === 'nats');
  if (!set) throw new Error('no StatefulSet nats in nats-cluster.yaml');
  const args: string[] = set.spec.template.spec.containers.find((c: any) => c.name === 'nats').args;
  const flags: string[] = [];
  let clusterName = '';
  for (const arg of args) {
    const [name, value] = arg.split(/=(.*)/s);
    if (name === '--cluster_name') clusterName = value;
    else if (name === '--jetstream') flags.push(arg);
    else if (
      !['--server_name', '--store_dir', '--http_port', '--cluster', '--routes'].includes(name)
    )
      throw new Error(`nats-cluster.yaml: ${arg} is not placed by the topology test`);
  }
  const kustomization = parseAllDocuments(
    readFileSync(join(PROD, 'kustomization.yaml'), 'utf8'),
  )[0].toJS();
  const literals: string[] = kustomization.configMapGenerator.find(
    (g: any) => g.name === 'platform-config',
  ).literals;
  const replicas = literals.find((l) => l.startsWith('NATS_STREAM_REPLICAS='));
  if (!replicas) throw new Error('kustomization.yaml: no NATS_STREAM_REPLICAS literal');
  return {
    nodes: Number(set.spec.replicas),
    clusterName,
    streamReplicas: Number(replicas.split('=')[1]),
    flags,
  };
}

interface Node {
  name: string;
  client: number;
  cluster: number;
  monitor: number;
  storeDir: string;
  process?: ChildProcess;
}

/**
 * The prod overlay's NATS JetStream cluster on one machine: as many nats-server processes as the
 * StatefulSet has replicas, each on private loopback ports (client, route, monitor) with its own
 * file store in a temporary directory and routes to all the others, with the overlay's cluster
 * name and flags ({@link prodNatsSettings}). A node can be killed (SIGKILL) and brought back on
 * the same ports and store, as a pod rescheduled with its volume.
 */
export class NatsCluster {
  private readonly root = mkdtempSync(join(tmpdir(), 'wp-nats-cluster-'));

  private constructor(
    private readonly nodes: Node[],
    readonly settings: ReturnType<typeof prodNatsSettings>,
  ) {}

  static async start(): Promise<NatsCluster> {
    if (!BINARY) throw new Error('nats-server binary not found');
    const settings = prodNatsSettings();
    const nodes: Node[] = [];
    for (let i = 0; i < settings.nodes; i++) {
      nodes.push({
        name: `nats-${i}`,
        client: await freePort(),
        cluster: await freePort(),
        monitor: await freePort(),
        storeDir: '',
      });
    }
    const cluster = new NatsCluster(nodes, settings);
    for (const node of nodes) {
      node.storeDir = join(cluster.root, node.name);
      mkdirSync(node.storeDir);
    }
    try {
      await Promise.all(nodes.map((_, i) => cluster.resume(i)));
    } catch (error) {
      await cluster.stop(); // nothing left running to hold the test run open
      throw error;
    }
    return cluster;
  }

  /** Every node's client URL, comma separated: the apps' `NATS_URL`. */
  get url(): string {
    return this.nodes.map((n) => `nats://127.0.0.1:${n.client}`).join(',');
  }

  get size(): number {
    return this.nodes.length;
  }

  /** Node `index`'s client port (what a Service in front of that node would forward to). */
  clientPort(index: number): number {
    return this.nodes[index].client;
  }

  /** Whether node `index`'s process is running. */
  running(index: number): boolean {
    const child = this.nodes[index].process;
    return !!child && child.exitCode === null && child.signalCode === null;
  }

  /** Starts node `index` (again, same ports and store); resolves once its `/healthz` is 200. */
  async resume(index: number): Promise<void> {
    const node = this.nodes[index];
    if (node.process && node.process.exitCode === null && node.process.signalCode === null) return;
    const routes = this.nodes
      .filter((n) => n !== node)
      .map((n) => `nats://127.0.0.1:${n.cluster}`)
      .join(',');
    node.process = spawn(
      BINARY!,
      [
        `--server_name=${node.name}`,
        ...this.settings.flags,
        `--store_dir=${node.storeDir}`,
        `--http_port=${node.monitor}`,
        `--cluster_name=${this.settings.clusterName}`,
        `--cluster=nats://127.0.0.1:${node.cluster}`,
        `--routes=${routes}`,
        '-a',
        '127.0.0.1',
        '-p',
        String(node.client),
      ],
      { stdio: 'ignore' },
    );
    await waitForPort(node.client, 20_000, `${node.name}`);
    await this.waitHealthy(index);
  }

  /**
   * Waits until node `index`'s monitor answers `/healthz` 200 (JetStream enabled and, in a
   * cluster, its meta group current).
   */
  async waitHealthy(index: number, timeoutMs = 30_000): Promise<void> {
    const node = this.nodes[index];
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${node.monitor}/healthz`)).status === 200,
      { timeoutMs, intervalMs: 100, what: `${node.name} healthy` },
    );
  }

  /** `/jsz` of node `index` with stream details: what that node holds of each stream. */
  async jsz(index: number): Promise<any> {
    const res = await fetch(`http://127.0.0.1:${this.nodes[index].monitor}/jsz?streams=true`);
    return res.json();
  }

  /**
   * Stops node `index` with `signal`: SIGKILL cuts its connections at once; SIGTERM is
   * nats-server's own shutdown. Resolves when the process has exited; its store stays on disk.
   */
  async kill(index: number, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> {
    const child = this.nodes[index].process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  /** Sends `signal` to node `index` without waiting for anything. */
  signal(index: number, signal: NodeJS.Signals): void {
    this.nodes[index].process?.kill(signal);
  }

  /**
   * Puts node `index` in lame-duck mode as the prod overlay's preStop hook does
   * (`nats-server --signal ldm`, here with the node's pid): it stops accepting clients, tells
   * the connected ones (INFO `ldm`) and, after its grace period (10 s by default), closes them
   * over its lame-duck duration (2 min by default) before it exits.
   * @throws when nats-server refuses the signal
   */
  lameDuck(index: number): void {
    const pid = this.nodes[index].process?.pid;
    if (!pid) throw new Error(`nats-${index} is not running`);
    const r = spawnSync(BINARY!, ['--signal', `ldm=${pid}`], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`nats-server --signal ldm=${pid}: ${r.stderr}`);
  }

  async stop(): Promise<void> {
    for (let i = 0; i < this.nodes.length; i++) await this.kill(i);
    rmSync(this.root, { recursive: true, force: true });
  }
}
