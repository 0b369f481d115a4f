import { containers, type K8sObject } from './manifests.js';

const ALLOWED_VOLUMES = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

/**
 * What a workload's pod does against the **restricted** Pod Security Standard
 * (kubernetes.io/docs/concepts/security/pod-security-standards), plus a read-only root file
 * system, which this project asks of every container. Empty when it passes.
 */
export function restrictedViolations(workload: K8sObject): string[] {
  const name = `${workload.kind}/${workload.metadata.name}`;
  const pod = workload.spec.template.spec;
  const podSc = pod.securityContext ?? {};
  const problems: string[] = [];
  if (pod.hostNetwork || pod.hostPID || pod.hostIPC) problems.push(`${name}: host namespaces`);
  for (const volume of pod.volumes ?? []) {
    const type = Object.keys(volume).find((k) => k !== 'name');
    if (!type || !ALLOWED_VOLUMES.includes(type)) problems.push(`${name}: volume type ${type}`);
  }
  for (const c of containers(workload)) {
    const sc = c.securityContext ?? {};
    const where = `${name} container ${c.name}`;
    if (!(sc.runAsNonRoot ?? podSc.runAsNonRoot)) problems.push(`${where}: runAsNonRoot`);
    if ((sc.runAsUser ?? podSc.runAsUser) === 0) problems.push(`${where}: runAsUser 0`);
    if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation`);
    if (sc.privileged) problems.push(`${where}: privileged`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${where}: drop ALL`);
    const added = (sc.capabilities?.add ?? []).filter((a: string) => a !== 'NET_BIND_SERVICE');
    if (added.length > 0) problems.push(`${where}: adds ${added.join(',')}`);
    const seccomp = sc.seccompProfile?.type ?? podSc.seccompProfile?.type;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') {
      problems.push(`${where}: seccompProfile`);
    }
    if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem`);
    for (const port of c.ports ?? []) {
      if (port.hostPort) problems.push(`${where}: hostPort`);
    }
  }
  return problems;
}
