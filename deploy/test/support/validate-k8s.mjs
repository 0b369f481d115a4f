// Validates Kubernetes objects against the JSON schemas of the npm packages `kubernetes-models`,
// `@kubernetes-models/prometheus-operator` and `@kubernetes-models/external-secrets`, offline.
// Those packages are ECMAScript modules only, so the jest tests run this file with Node:
//   stdin: a JSON array of objects; stdout: a JSON array of problems, one string each.
import { readFileSync } from 'node:fs';

/** The module of one kind: `apps/v1` + `Deployment` → `kubernetes-models/apps/v1/Deployment`. */
function modulePath(apiVersion, kind) {
  if (apiVersion.startsWith('monitoring.coreos.com/')) {
    return `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`;
  }
  if (apiVersion.startsWith('external-secrets.io/')) {
    return `@kubernetes-models/external-secrets/${apiVersion}/${kind}`;
  }
  return `kubernetes-models/${apiVersion}/${kind}`;
}

const objects = JSON.parse(readFileSync(0, 'utf8'));
const problems = [];
for (const object of objects) {
  const name = `${object.kind} ${object.metadata?.name ?? '(no name)'}`;
  let Model;
  try {
    Model = (await import(modulePath(object.apiVersion, object.kind)))[object.kind];
  } catch {
    problems.push(`${name}: no schema for ${object.apiVersion} ${object.kind}`);
    continue;
  }
  try {
    new Model(object).validate();
  } catch (error) {
    problems.push(`${name}: ${error.message}`);
  }
}
process.stdout.write(JSON.stringify(problems));
