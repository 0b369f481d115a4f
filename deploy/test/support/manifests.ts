import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const REPO = join(__dirname, '..', '..', '..');
export const K8S = join(REPO, 'deploy', 'k8s');

/** A Kubernetes object as rendered (only the fields the checks read are typed). */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: any;
}

/** Whether `kubectl` (with its built-in kustomize) is on PATH. */
export function hasKubectl(): boolean {
  return spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
}

/**
 * `kubectl kustomize` of a directory under deploy/k8s, or of a throw-away kustomization there
 * made of `resources` and `components` (paths relative to deploy/k8s), parsed into objects.
 */
export function render(
  target: string | { resources: string[]; components?: string[] },
): K8sObject[] {
  let dir: string;
  let temporary: string | undefined;
  if (typeof target === 'string') {
    dir = join(K8S, target);
  } else {
    temporary = mkdtempSync(join(K8S, '.render-'));
    dir = temporary;
    const rel = (p: string) => relative(temporary!, join(K8S, p));
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      JSON.stringify({
        resources: target.resources.map(rel),
        components: (target.components ?? []).map(rel),
      }),
    );
  }
  try {
    const text = execFileSync('kubectl', ['kustomize', dir], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const objects = parseAllDocuments(text)
      .map((doc) => doc.toJS() as K8sObject | null)
      .filter((o): o is K8sObject => o !== null);
    // kustomize folds long base64 Secret values over lines; the API server's decoder skips the
    // line breaks (Go's encoding/base64), the schema's `byte` format does not: join them.
    for (const secret of objects.filter((o) => o.kind === 'Secret')) {
      for (const key of Object.keys(secret.data ?? {})) {
        secret.data[key] = String(secret.data[key]).replace(/\s/g, '');
      }
    }
    return objects;
  } finally {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  }
}

/** Schema problems of `objects` (empty when all validate), from validate-k8s.mjs. */
export function schemaProblems(objects: K8sObject[]): string[] {
  const result = spawnSync(process.execPath, [join(__dirname, 'validate-k8s.mjs')], {
    cwd: REPO,
    input: JSON.stringify(objects),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`validate-k8s.mjs failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as string[];
}

export function byKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((o) => o.kind === kind);
}

export function find(objects: K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}

/** Workloads with a pod template: Deployments, StatefulSets, DaemonSets, Jobs. */
export function workloads(objects: K8sObject[]): K8sObject[] {
  return objects.filter((o) => ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(o.kind));
}

/** Every container of a workload's pod: init, regular and ephemeral. */
export function containers(workload: K8sObject): any[] {
  const spec = workload.spec.template.spec;
  return [
    ...(spec.initContainers ?? []),
    ...(spec.containers ?? []),
    ...(spec.ephemeralContainers ?? []),
  ];
}

/**
 * The environment a container gets, by name: literal values, values of ConfigMaps and Secrets
 * present in the render (`envFrom` and `…KeyRef`), and `undefined` for a key of a Secret that is
 * not rendered (one that exists beforehand: prod's). Throws for a reference to a missing
 * ConfigMap, or to a key a rendered ConfigMap or Secret does not hold.
 */
export function containerEnv(
  objects: K8sObject[],
  container: any,
): Map<string, string | undefined> {
  const env = new Map<string, string | undefined>();
  const data = (kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> | null => {
    const object = find(objects, kind, name);
    if (!object) {
      if (kind === 'ConfigMap') throw new Error(`${container.name}: no ConfigMap ${name}`);
      return null;
    }
    if (kind === 'ConfigMap') return object.data ?? {};
    const decoded: Record<string, string> = { ...(object.stringData ?? {}) };
    for (const [k, v] of Object.entries<string>(object.data ?? {})) {
      decoded[k] = Buffer.from(v, 'base64').toString('utf8');
    }
    return decoded;
  };
  for (const source of container.envFrom ?? []) {
    const ref = source.configMapRef ?? source.secretRef;
    const values = data(source.configMapRef ? 'ConfigMap' : 'Secret', ref.name);
    if (values === null)
      throw new Error(`${container.name}: envFrom unrendered Secret ${ref.name}`);
    for (const [k, v] of Object.entries(values)) env.set((source.prefix ?? '') + k, v);
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom?.configMapKeyRef ?? entry.valueFrom?.secretKeyRef;
    if (!ref) {
      env.set(entry.name, entry.value ?? undefined);
      continue;
    }
    const values = data(entry.valueFrom.configMapKeyRef ? 'ConfigMap' : 'Secret', ref.name);
    if (values !== null && !(ref.key in values) && !ref.optional) {
      throw new Error(
        `${container.name}: ${entry.name} refers to missing key ${ref.name}/${ref.key}`,
      );
    }
    env.set(entry.name, values?.[ref.key]);
  }
  return env;
}
