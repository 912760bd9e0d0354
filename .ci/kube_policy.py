"""Renders deploy/kubernetes (the base alone, and with every component),
validates each object against the Kubernetes schemas (kubernetes-validate,
offline, strict: unknown fields fail), and checks the deployment policies:

- containers: a tagged image (no `latest`, no bare name), non-root,
  read-only root filesystem, no privilege escalation, every capability
  dropped, CPU and memory requests and limits;
- gamebot: liveness on /healthz and readiness on /readyz on its port; a
  termination grace period longer than the drain timeout plus the preStop
  pause; a CPU limit of at least `workers`; a memory limit that covers
  cache_mib + search_memory_mib + 16 MiB per worker + 128 MiB;
- the HPA scales the gamebot Deployment on CPU; the PDB and the Service
  select its pods; the Service's target port is a container port; the
  ServiceMonitor selects the Service and names its port; the Redis
  component bounds its memory (maxmemory, allkeys-lru) and gamebot's
  GAMEBOT_CACHE_URL names its Service.

Then it breaks the rendered objects one way at a time and requires each
break to be caught, so the checks themselves are tested.

    python .ci/kube_policy.py deploy/kubernetes
"""

import copy
import pathlib
import sys

import kubernetes_validate
import yaml

KUBERNETES = "1.33"
# Settings' defaults (config/default.toml) the memory rule uses when the
# Deployment does not set them.
DEFAULTS = {"GAMEBOT_WORKERS": 1, "GAMEBOT_CACHE_MIB": 64, "GAMEBOT_SEARCH_MEMORY_MIB": 512,
            "GAMEBOT_DRAIN_TIMEOUT_MS": 10000}
GOMOKU_TABLE_MIB = 16
RUNTIME_MIB = 128


def load_all(path):
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def json_patch(doc, ops):
    """The JSON-patch `add` operations kustomize components here use."""
    for op in ops:
        assert op["op"] == "add", f"unsupported patch op {op['op']}"
        parts = op["path"].strip("/").split("/")
        node = doc
        for p in parts[:-1]:
            node = node[int(p)] if isinstance(node, list) else node[p]
        last = parts[-1]
        if isinstance(node, list):
            node.append(op["value"]) if last == "-" else node.insert(int(last), op["value"])
        else:
            node[last] = op["value"]


def render(root, components):
    base = root / "base"
    kustomization = yaml.safe_load((base / "kustomization.yaml").read_text())
    docs = [d for r in kustomization["resources"] for d in load_all(base / r)]
    for name in components:
        comp_dir = root / "components" / name
        comp = yaml.safe_load((comp_dir / "kustomization.yaml").read_text())
        assert comp["kind"] == "Component", f"{name} is not a kustomize Component"
        docs += [d for r in comp.get("resources", []) for d in load_all(comp_dir / r)]
        for patch in comp.get("patches", []):
            target = patch["target"]
            for d in docs:
                if d["kind"] == target["kind"] and d["metadata"]["name"] == target["name"]:
                    json_patch(d, yaml.safe_load(patch["patch"]))
    for entry in kustomization.get("labels", []):
        for d in docs:
            d["metadata"].setdefault("labels", {}).update(entry["pairs"])
    images = {i["name"]: f"{i.get('newName', i['name'])}:{i['newTag']}" for i in kustomization.get("images", [])}
    for d in docs:
        for c in pod_spec(d).get("containers", []) if pod_spec(d) else []:
            c["image"] = images.get(c["image"], c["image"])
    return docs


def pod_spec(doc):
    return doc.get("spec", {}).get("template", {}).get("spec") if doc["kind"] == "Deployment" else None


def find(docs, kind, name=None):
    return [d for d in docs if d["kind"] == kind and (name is None or d["metadata"]["name"] == name)]


def quantity_mib(q):
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024, "Ti": 1024 * 1024}
    for u, f in units.items():
        if str(q).endswith(u):
            return float(str(q)[: -len(u)]) * f
    return float(q) / (1024 * 1024)


def cpu(q):
    q = str(q)
    return float(q[:-1]) / 1000 if q.endswith("m") else float(q)


def schema_errors(docs):
    errors = []
    for d in docs:
        name = f"{d['kind']}/{d['metadata']['name']}"
        if d["apiVersion"].startswith("monitoring.coreos.com/"):
            # A CRD kubernetes-validate has no schema for: its required shape.
            spec = d.get("spec", {})
            if not spec.get("selector", {}).get("matchLabels") or not spec.get("endpoints"):
                errors.append(f"{name}: needs spec.selector.matchLabels and spec.endpoints")
            continue
        try:
            kubernetes_validate.validate(d, KUBERNETES, strict=True)
        except kubernetes_validate.ValidationError as e:
            errors.append(f"{name}: {e.message} at {'/'.join(str(p) for p in e.path)}")
        except kubernetes_validate.SchemaNotFoundError as e:
            errors.append(f"{name}: no schema ({e})")
    return errors


def policy_errors(docs):
    errors = []
    for d in docs:
        spec = pod_spec(d)
        if spec is None:
            continue
        name = d["metadata"]["name"]
        pod_sc = spec.get("securityContext", {})
        for c in spec["containers"]:
            where = f"{name}/{c['name']}"
            image = c.get("image", "")
            tag = image.rsplit(":", 1)[1] if ":" in image.rsplit("/", 1)[-1] else ""
            if not tag or tag == "latest":
                errors.append(f"{where}: image {image!r} needs a fixed tag (not latest)")
            sc = c.get("securityContext", {})
            if not (sc.get("runAsNonRoot", pod_sc.get("runAsNonRoot")) is True):
                errors.append(f"{where}: must run as non-root")
            if sc.get("readOnlyRootFilesystem") is not True:
                errors.append(f"{where}: root filesystem must be read-only")
            if sc.get("allowPrivilegeEscalation") is not False:
                errors.append(f"{where}: must not allow privilege escalation")
            if "ALL" not in sc.get("capabilities", {}).get("drop", []):
                errors.append(f"{where}: must drop all capabilities")
            res = c.get("resources", {})
            for kind in ("requests", "limits"):
                for r in ("cpu", "memory"):
                    if r not in res.get(kind, {}):
                        errors.append(f"{where}: no {r} {kind[:-1]}")
    gamebot = find(docs, "Deployment", "gamebot")
    if not gamebot:
        return errors + ["no gamebot Deployment"]
    dep = gamebot[0]
    spec = pod_spec(dep)
    c = spec["containers"][0]
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    setting = lambda k: int(env.get(k, DEFAULTS[k]))
    ports = {p.get("name"): p["containerPort"] for p in c.get("ports", [])}
    for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")):
        get = c.get(probe, {}).get("httpGet", {})
        if get.get("path") != path or get.get("port") not in list(ports) + list(ports.values()):
            errors.append(f"gamebot: {probe} must GET {path} on the container's port")
    pause = c.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds", 0)
    drain = setting("GAMEBOT_DRAIN_TIMEOUT_MS") / 1000
    if spec.get("terminationGracePeriodSeconds", 30) <= drain + pause:
        errors.append(f"gamebot: terminationGracePeriodSeconds must exceed the drain ({drain} s) plus the preStop pause ({pause} s)")
    limits = c.get("resources", {}).get("limits", {})
    workers = setting("GAMEBOT_WORKERS")
    if "cpu" in limits and cpu(limits["cpu"]) < workers:
        errors.append(f"gamebot: a CPU limit of {limits['cpu']} is below workers = {workers}")
    need = setting("GAMEBOT_CACHE_MIB") + setting("GAMEBOT_SEARCH_MEMORY_MIB") + GOMOKU_TABLE_MIB * workers + RUNTIME_MIB
    if "memory" in limits and quantity_mib(limits["memory"]) < need:
        errors.append(f"gamebot: a memory limit of {limits['memory']} is below the {need} MiB the settings allow")
    labels = dep["spec"]["template"]["metadata"]["labels"]
    selects = lambda sel: bool(sel) and all(labels.get(k) == v for k, v in sel.items())
    for hpa in find(docs, "HorizontalPodAutoscaler"):
        ref = hpa["spec"]["scaleTargetRef"]
        if (ref["kind"], ref["name"]) != ("Deployment", "gamebot"):
            errors.append("HPA must scale the gamebot Deployment")
        if not any(m.get("resource", {}).get("name") == "cpu" for m in hpa["spec"].get("metrics", [])):
            errors.append("HPA must scale on CPU")
    if not find(docs, "HorizontalPodAutoscaler"):
        errors.append("no HorizontalPodAutoscaler")
    pdbs = find(docs, "PodDisruptionBudget")
    if not pdbs or not all(selects(p["spec"]["selector"]["matchLabels"]) for p in pdbs):
        errors.append("a PodDisruptionBudget must select the gamebot pods")
    service = find(docs, "Service", "gamebot")
    if not service or not selects(service[0]["spec"]["selector"]):
        errors.append("the gamebot Service must select the gamebot pods")
    else:
        for p in service[0]["spec"]["ports"]:
            if p["targetPort"] not in list(ports) + list(ports.values()):
                errors.append(f"the Service's targetPort {p['targetPort']} is no container port")
    for sm in find(docs, "ServiceMonitor"):
        svc_labels = service[0]["metadata"].get("labels", {}) if service else {}
        if not all(svc_labels.get(k) == v for k, v in sm["spec"]["selector"]["matchLabels"].items()):
            errors.append("the ServiceMonitor must select the gamebot Service")
        names = {p.get("name") for p in service[0]["spec"]["ports"]} if service else set()
        if any(e.get("port") not in names for e in sm["spec"]["endpoints"]):
            errors.append("the ServiceMonitor must name a port of the Service")
    redis = find(docs, "Deployment", "gamebot-redis")
    if redis:
        args = " ".join(pod_spec(redis[0])["containers"][0].get("args", []))
        if "--maxmemory " not in args or "allkeys-lru" not in args:
            errors.append("redis must bound its memory: --maxmemory with allkeys-lru")
        svc = find(docs, "Service", "gamebot-redis")
        url = env.get("GAMEBOT_CACHE_URL", "")
        if not svc or not url.startswith("redis://gamebot-redis:6379"):
            errors.append(f"gamebot's GAMEBOT_CACHE_URL must name the gamebot-redis Service (got {url!r})")
    return errors


def breakages(docs):
    """(what, broken copy) pairs: each must make policy_errors or schema_errors fail."""
    def broken(what, change):
        d = copy.deepcopy(docs)
        change(d)
        return what, d

    dep = lambda d: find(d, "Deployment", "gamebot")[0]
    ctr = lambda d: pod_spec(dep(d))["containers"][0]
    env = lambda d, k, v: ctr(d)["env"].append({"name": k, "value": v})
    return [
        broken("latest tag", lambda d: ctr(d).update(image="gamebot:latest")),
        broken("untagged image", lambda d: ctr(d).update(image="gamebot")),
        broken("root", lambda d: (pod_spec(dep(d))["securityContext"].update(runAsNonRoot=False),
                                  ctr(d)["securityContext"].pop("runAsNonRoot", None))),
        broken("writable root", lambda d: ctr(d)["securityContext"].update(readOnlyRootFilesystem=False)),
        broken("capabilities kept", lambda d: ctr(d)["securityContext"].update(capabilities={"drop": []})),
        broken("no memory limit", lambda d: ctr(d)["resources"]["limits"].pop("memory")),
        broken("short grace period", lambda d: pod_spec(dep(d)).update(terminationGracePeriodSeconds=12)),
        broken("liveness elsewhere", lambda d: ctr(d)["livenessProbe"]["httpGet"].update(path="/")),
        broken("readiness on liveness", lambda d: ctr(d)["readinessProbe"]["httpGet"].update(path="/healthz")),
        broken("more workers than cores", lambda d: env(d, "GAMEBOT_WORKERS", "8")),
        broken("cache beyond the limit", lambda d: env(d, "GAMEBOT_CACHE_MIB", "2048")),
        broken("HPA on another target", lambda d: find(d, "HorizontalPodAutoscaler")[0]["spec"]["scaleTargetRef"].update(name="other")),
        broken("PDB selects nothing", lambda d: find(d, "PodDisruptionBudget")[0]["spec"]["selector"]["matchLabels"].update(app="none")),
        broken("Service selects nothing", lambda d: find(d, "Service", "gamebot")[0]["spec"]["selector"].update(app="none")),
        broken("unknown field", lambda d: dep(d)["spec"].update(replica=3)),
        broken("wrong type", lambda d: dep(d)["spec"].update(replicas="two")),
    ]


def main(root):
    root = pathlib.Path(root)
    failed = False
    renders = {"base": render(root, []), "base+redis+servicemonitor": render(root, ["redis", "servicemonitor"])}
    for name, docs in renders.items():
        errors = schema_errors(docs) + policy_errors(docs)
        kinds = ", ".join(f"{d['kind']}/{d['metadata']['name']}" for d in docs)
        if errors:
            failed = True
            print(f"FAIL {name}: " + "; ".join(errors))
        else:
            print(f"PASS {name}: {kinds} (Kubernetes {KUBERNETES} schemas, policies)")
    full = renders["base+redis+servicemonitor"]
    missed = [what for what, d in breakages(full) if not (schema_errors(d) + policy_errors(d))]
    if missed:
        failed = True
        print(f"FAIL the checks miss: {', '.join(missed)}")
    else:
        print(f"PASS every one of {len(breakages(full))} deliberate breakages is caught")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "deploy/kubernetes"))
