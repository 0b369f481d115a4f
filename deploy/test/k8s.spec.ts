import {
  byKind,
  containerEnv,
  containers,
  find,
  hasKubectl,
  render,
  schemaProblems,
  workloads,
  type K8sObject,
} from './support/manifests.js';
import { restrictedViolations } from './support/pod-security.js';
import { APPS, SERVICES, fixedValues, requiredVariables } from './support/required-env.js';

// deploy/k8s: each overlay renders with `kubectl kustomize`, every object validates against the
// Kubernetes schemas, and the rules of deploy/README.md § What the checks enforce hold.
const OVERLAYS = ['overlays/dev', 'overlays/prod'] as const;
const PUBLIC_PREFIXES = ['/v1/api', '/api/public', '/docs'];

if (!hasKubectl()) {
  test('kubectl is installed', () => {
    throw new Error(
      'kubectl (with kustomize) is needed: .ci/run installs it; see deploy/README.md',
    );
  });
} else {
  const rendered = Object.fromEntries(OVERLAYS.map((o) => [o, render(o)])) as Record<
    (typeof OVERLAYS)[number],
    K8sObject[]
  >;

  describe.each(OVERLAYS)('%s', (overlay) => {
    const objects = rendered[overlay];
    const app = (name: string) => find(objects, 'Deployment', name)!;
    const appContainer = (name: string) =>
      app(name).spec.template.spec.containers.find((c: any) => c.name === name);

    it('renders objects that all validate against the Kubernetes schemas', () => {
      expect(objects.length).toBeGreaterThan(30);
      expect(schemaProblems(objects)).toEqual([]);
    });

    it('puts everything in one namespace that enforces the restricted Pod Security Standard', () => {
      const namespace = byKind(objects, 'Namespace');
      expect(namespace).toHaveLength(1);
      expect(namespace[0].metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe(
        'restricted',
      );
      for (const o of objects.filter((x) => x.kind !== 'Namespace')) {
        expect(`${o.kind}/${o.metadata.name} ${o.metadata.namespace}`).toBe(
          `${o.kind}/${o.metadata.name} ${namespace[0].metadata.name}`,
        );
      }
    });

    it('runs every container (init containers too) under the restricted securityContext', () => {
      const violations = workloads(objects).flatMap((w) => restrictedViolations(w));
      expect(violations).toEqual([]);
    });

    it('pins every image, none `latest`', () => {
      for (const w of workloads(objects)) {
        for (const c of containers(w)) {
          expect(`${w.metadata.name}: ${c.image}`).toMatch(/:[\w][\w.-]*$/);
          expect(c.image).not.toMatch(/:latest$/);
        }
      }
    });

    it.each(APPS)(
      'gives %s its own ServiceAccount, PDB, NetworkPolicy, probes and shutdown',
      (name) => {
        const pod = app(name).spec.template.spec;
        const sa = find(objects, 'ServiceAccount', name);
        expect(sa?.automountServiceAccountToken).toBe(false);
        expect(pod.serviceAccountName).toBe(name);
        expect(pod.automountServiceAccountToken).toBe(false);

        const selects = (o: K8sObject, selector: any) =>
          selector?.matchLabels?.['app.kubernetes.io/name'] === name;
        expect(
          byKind(objects, 'PodDisruptionBudget').some((p) => selects(p, p.spec.selector)),
        ).toBe(true);
        const policy = byKind(objects, 'NetworkPolicy').find((p) => selects(p, p.spec.podSelector));
        expect(policy?.spec.policyTypes).toEqual(['Ingress', 'Egress']);

        const c = appContainer(name);
        expect(c.readinessProbe.httpGet.path).toBe('/health/ready');
        expect(c.livenessProbe.httpGet.path).toBe('/health/live');
        expect(c.startupProbe.httpGet.path).toMatch(/^\/health\/(live|ready)$/);
        expect(c.lifecycle.preStop.exec.command).toEqual(['sleep', '5']);
        expect(pod.terminationGracePeriodSeconds).toBe(45);
        expect(c.resources.requests.cpu).toBeDefined();
        expect(c.resources.limits.memory).toBeDefined();
        expect(c.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
        const keys = pod.topologySpreadConstraints.map((t: any) => t.topologyKey);
        expect(keys).toEqual(
          expect.arrayContaining(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']),
        );
      },
    );

    it('denies all traffic by default', () => {
      const deny = byKind(objects, 'NetworkPolicy').find(
        (p) =>
          Object.keys(p.spec.podSelector ?? {}).length === 0 &&
          !p.spec.ingress &&
          !p.spec.egress &&
          p.spec.policyTypes.includes('Ingress') &&
          p.spec.policyTypes.includes('Egress'),
      );
      expect(deny).toBeDefined();
    });

    it('lets only the ingress controller reach the gateway, and only the gateway the services', () => {
      const policies = byKind(objects, 'NetworkPolicy');
      const ingressFrom = (name: string) =>
        policies
          .filter((p) => p.spec.podSelector?.matchLabels?.['app.kubernetes.io/name'] === name)
          .flatMap((p) => p.spec.ingress ?? [])
          .flatMap((rule: any) => rule.from ?? [{}]);
      expect(ingressFrom('gateway')).toEqual([
        { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } },
      ]);
      for (const service of SERVICES) {
        expect(ingressFrom(service)).toEqual([
          { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } },
        ]);
      }
    });

    it('lets the apps out only to DNS, NATS, Redis, PostgreSQL (auth: mail; gateway: services)', () => {
      const allowed: Record<string, number[]> = {
        gateway: [53, 4222, 6379, 8081, 8082, 8083, 8084],
        auth: [53, 4222, 6379, 5432, 1025, 25, 465, 587, 443],
        org: [53, 4222, 6379, 5432],
        wallet: [53, 4222, 6379, 5432],
        analytics: [53, 4222, 6379, 5432],
      };
      const labels = (name: string) => ({ 'app.kubernetes.io/name': name });
      for (const name of APPS) {
        const rules = byKind(objects, 'NetworkPolicy')
          .filter((p) => selectsPod(p.spec.podSelector, labels(name)))
          .flatMap((p) => p.spec.egress ?? []);
        expect(rules.length).toBeGreaterThan(0);
        for (const rule of rules) {
          expect(rule.ports?.length).toBeGreaterThan(0); // never "any port"
          for (const port of rule.ports) expect(allowed[name]).toContain(port.port);
        }
      }
    });

    it('routes only the public API through the Ingress (no /metrics, no /health)', () => {
      const paths = byKind(objects, 'Ingress').flatMap((i) =>
        i.spec.rules.flatMap((r: any) => r.http.paths),
      );
      expect(paths.length).toBeGreaterThan(0);
      for (const p of paths) {
        expect(PUBLIC_PREFIXES).toContain(p.path);
        expect(p.backend.service.name).toBe('gateway');
      }
    });

    it('leaves replica counts to the HPA wherever there is one', () => {
      for (const hpa of byKind(objects, 'HorizontalPodAutoscaler')) {
        const target = find(objects, hpa.spec.scaleTargetRef.kind, hpa.spec.scaleTargetRef.name);
        expect(target).toBeDefined();
        expect(`${target!.metadata.name}: ${target!.spec.replicas}`).toBe(
          `${target!.metadata.name}: undefined`,
        );
      }
      const scaled = byKind(objects, 'HorizontalPodAutoscaler').map((h) => h.metadata.name);
      expect(scaled.sort()).toEqual(overlay === 'overlays/prod' ? [...APPS].sort() : []);
    });

    it.each(APPS)('gives %s every required production variable', (name) => {
      const env = containerEnv(objects, appContainer(name));
      const missing = requiredVariables(name).filter((v) => !env.has(v));
      expect(missing).toEqual([]);
      for (const [key, value] of Object.entries(fixedValues(name))) {
        expect(`${key}=${env.get(key)}`).toBe(`${key}=${value}`);
      }
    });

    it('mounts the JWT private key only into auth, and each database URL only into its service', () => {
      for (const w of workloads(objects)) {
        for (const c of containers(w)) {
          const names = [...containerEnv(objects, c).keys()];
          const owner = w.metadata.name;
          if (owner !== 'auth')
            expect(`${owner}: ${names.join(' ')}`).not.toMatch(/JWT_PRIVATE_KEY/);
          for (const db of names.filter((n) => n.endsWith('_DATABASE_URL'))) {
            expect(`${owner}: ${db}`).toBe(`${owner}: ${owner.toUpperCase()}_DATABASE_URL`);
          }
        }
      }
      // No Secret holding it is referenced by any other pod either (volumes included).
      const holders = byKind(objects, 'Secret')
        .filter((s) => 'JWT_PRIVATE_KEY' in (s.data ?? {}))
        .map((s) => s.metadata.name);
      for (const w of workloads(objects).filter((x) => x.metadata.name !== 'auth')) {
        const text = JSON.stringify(w.spec.template.spec);
        for (const h of holders) expect(`${w.metadata.name}: ${text}`).not.toContain(h);
      }
    });

    it('rolls pods on configuration changes (generated, content-hashed ConfigMaps)', () => {
      for (const name of APPS) {
        for (const from of appContainer(name).envFrom) {
          expect(from.configMapRef.name).toMatch(/-[a-z0-9]{10}$/);
        }
      }
      if (overlay === 'overlays/dev') {
        const secretRefs = APPS.flatMap((n) =>
          appContainer(n).env.map((e: any) => e.valueFrom?.secretKeyRef?.name),
        );
        for (const ref of secretRefs) expect(ref).toMatch(/-[a-z0-9]{10}$/);
      }
    });
  });

  describe('overlays/prod', () => {
    const objects = rendered['overlays/prod'];

    it('runs a 3-node NATS JetStream cluster with routes, and 3 stream replicas', () => {
      const nats = find(objects, 'StatefulSet', 'nats')!;
      expect(nats.spec.replicas).toBe(3);
      const args: string[] = nats.spec.template.spec.containers[0].args;
      expect(args).toContain('--jetstream');
      const routes = args.find((a) => a.startsWith('--routes='))!;
      expect(routes.split(',')).toHaveLength(3);
      expect(find(objects, 'ConfigMap', 'platform-config')).toBeUndefined(); // hashed name
      const config = byKind(objects, 'ConfigMap').find((c) =>
        c.metadata.name.startsWith('platform-config-'),
      );
      expect(config?.data.NATS_STREAM_REPLICAS).toBe('3');
    });

    it('brings no Secret of its own: the Secrets exist beforehand (External Secrets or by hand)', () => {
      expect(byKind(objects, 'Secret')).toEqual([]);
    });
  });

  describe('components/external-secrets', () => {
    it('declares, for prod, every Secret key the Deployments read, in valid ExternalSecrets', () => {
      const objects = render({
        resources: ['overlays/prod'],
        components: ['components/external-secrets'],
      });
      const external = byKind(objects, 'ExternalSecret');
      expect(schemaProblems(external)).toEqual([]);
      const declared = new Set(
        external.flatMap((e) =>
          e.spec.data.map((d: any) => `${e.spec.target.name}/${d.secretKey}`),
        ),
      );
      const read = workloads(objects)
        .flatMap((w) => containers(w))
        .flatMap((c) => c.env ?? [])
        .map((e: any) => e.valueFrom?.secretKeyRef)
        .filter(Boolean)
        .map((ref: any) => `${ref.name}/${ref.key}`);
      expect(read.length).toBeGreaterThan(10);
      expect(read.filter((key) => !declared.has(key))).toEqual([]);
      // …and nothing more: a Secret holds only what its readers need.
      expect([...declared].filter((key) => !read.includes(key))).toEqual([]);
    });
  });

  describe('components/monitoring', () => {
    it('adds a valid ServiceMonitor per app on /metrics of its metrics port', () => {
      const objects = render({
        resources: ['overlays/prod'],
        components: ['components/monitoring'],
      });
      const monitors = byKind(objects, 'ServiceMonitor');
      expect(monitors.map((m) => m.metadata.name).sort()).toEqual([...APPS].sort());
      for (const m of monitors) {
        expect(m.spec.endpoints[0]).toMatchObject({ path: '/metrics', port: 'metrics' });
      }
      // The port it names exists on the app's Service, and Prometheus may reach only that one.
      const services = byKind(objects, 'Service');
      for (const name of APPS) {
        const service = services.find((s) => s.metadata.name === name);
        expect(service?.spec.ports.map((p: any) => p.name).sort()).toEqual(['http', 'metrics']);
      }
      const scrape = byKind(objects, 'NetworkPolicy').find(
        (p) => p.metadata.name === 'allow-prometheus-scrape',
      );
      expect(scrape?.spec.ingress[0].ports.map((p: any) => p.port).sort()).toEqual([
        9080, 9081, 9082, 9083, 9084,
      ]);
      expect(schemaProblems(monitors)).toEqual([]);
    });
  });
}

/** Whether a label selector (matchLabels, matchExpressions with In) selects a pod's labels. */
function selectsPod(selector: any, labels: Record<string, string>): boolean {
  const matchLabels = Object.entries<string>(selector?.matchLabels ?? {});
  const expressions: any[] = selector?.matchExpressions ?? [];
  return (
    matchLabels.every(([k, v]) => labels[k] === v) &&
    expressions.every((e) => e.operator === 'In' && e.values.includes(labels[e.key]))
  );
}
