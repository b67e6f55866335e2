{{/*
Named templates shared by every service. Each service's folder (templates/<app>/) holds one
small file per kind that includes these with the app's name, so a service's manifests live
together (and can diverge there) while each kind is defined once.
Called with (dict "root" $ "name" "<app>").
*/}}

{{- define "gateway.labels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/part-of: gateway
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end }}

{{- define "gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end }}

{{/* An app is on unless it says `enabled: false`. Prints "true" or "". */}}
{{- define "gateway.enabled" -}}
{{- $app := index .root.Values.apps .name -}}
{{- if or (not (hasKey $app "enabled")) $app.enabled }}true{{ end -}}
{{- end }}

{{/*
Per-app settings over the global ones, key by key (list global app); JSON for fromJson.
`set` rather than sprig's merge, which would let a global `true` win over an app's `false`.
*/}}
{{- define "gateway.overlay" -}}
{{- $out := deepCopy (index . 0 | default dict) -}}
{{- range $key, $value := (index . 1 | default dict) }}{{ $_ := set $out $key $value }}{{ end -}}
{{- toJson $out -}}
{{- end }}

{{- define "gateway.image" -}}
{{- $app := index .root.Values.apps .name -}}
{{- $image := include "gateway.overlay" (list .root.Values.global.image $app.image) | fromJson -}}
{{ $image.repository }}:{{ $image.tag | default .root.Chart.AppVersion }}
{{- end }}

{{- define "gateway.imagePullPolicy" -}}
{{- $app := index .root.Values.apps .name -}}
{{- $image := include "gateway.overlay" (list .root.Values.global.image $app.image) | fromJson -}}
{{ $image.pullPolicy }}
{{- end }}

{{/* The app prefix of its settings: provider-proxy → PROVIDER_PROXY (PROVIDER_PROXY_HOST, _PORT, _ADDRESS). */}}
{{- define "gateway.envPrefix" -}}
{{ . | upper | replace "-" "_" }}
{{- end }}

{{/* A connection URL either inline (not a secret) or from the Secret (when it carries credentials). */}}
{{- define "gateway.urlEnv" -}}
- name: {{ .env }}
{{- if .setting.urlSecretKey }}
  valueFrom:
    secretKeyRef: { name: {{ .setting.secretName | default .root.Values.global.secretName }}, key: {{ .setting.urlSecretKey }} }
{{- else }}
  value: {{ .setting.url | quote }}
{{- end }}
{{- end }}

{{/*
The app's environment. Every name here must exist in apps/<app>/src/env.ts (deploy's test
checks it). Secrets come only from secretKeyRef: the internal token, DATABASE_URL, `secretEnv`.
*/}}
{{- define "gateway.env" -}}
{{- $root := .root -}}
{{- $g := $root.Values.global -}}
{{- $app := index $root.Values.apps .name -}}
{{- $prefix := include "gateway.envPrefix" .name -}}
- name: NODE_ENV
  value: production
- name: LOG_LEVEL
  value: {{ $app.logLevel | default $g.logLevel | quote }}
- name: OPS_HOST
  value: "0.0.0.0"
- name: {{ $prefix }}_HOST
  value: "0.0.0.0"
- name: {{ $prefix }}_PORT
  value: {{ $app.port | quote }}
- name: {{ $prefix }}_OPS_PORT
  value: {{ $app.opsPort | quote }}
{{- if or (not (hasKey $app "internalToken")) $app.internalToken }}
- name: GATEWAY_INTERNAL_TOKEN
  valueFrom:
    secretKeyRef: { name: {{ $g.secretName }}, key: {{ $g.internalTokenKey }} }
{{- end }}
{{- if has "nats" ($app.uses | default list) }}
{{ include "gateway.urlEnv" (dict "root" $root "env" "NATS_URL" "setting" $g.nats) }}
{{- end }}
{{- if has "redis" ($app.uses | default list) }}
{{ include "gateway.urlEnv" (dict "root" $root "env" "REDIS_URL" "setting" $g.redis) }}
{{- end }}
{{- range $other := $app.calls }}
- name: {{ include "gateway.envPrefix" $other }}_ADDRESS
  value: "{{ $other }}:{{ (index $root.Values.apps $other).port }}"
{{- end }}
{{- with $app.database }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef: { name: {{ .secretName | default $g.secretName }}, key: {{ .secretKey }} }
- name: DATABASE_SCHEMA
  value: {{ .schema | default "public" | quote }}
{{- if .poolMax }}
- name: DATABASE_POOL_MAX
  value: {{ .poolMax | quote }}
{{- end }}
{{- end }}
{{- $env := dict -}}
{{- range $key, $value := ($g.env | default dict) }}{{ $_ := set $env $key $value }}{{ end -}}
{{- range $key, $value := ($app.env | default dict) }}{{ $_ := set $env $key $value }}{{ end -}}
{{- range $key, $value := $env }}
- name: {{ $key }}
  value: {{ $value | quote }}
{{- end }}
{{- range $key, $ref := $app.secretEnv }}
- name: {{ $key }}
  valueFrom:
    secretKeyRef: { name: {{ $ref.name | default $g.secretName }}, key: {{ $ref.key }}{{ if $ref.optional }}, optional: true{{ end }} }
{{- end }}
{{- end }}

{{- define "gateway.podSecurity" -}}
automountServiceAccountToken: false
securityContext:
  runAsNonRoot: true
  runAsUser: 1000
  runAsGroup: 1000
  seccompProfile: { type: RuntimeDefault }
{{- with .root.Values.global.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{- define "gateway.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities: { drop: [ALL] }
{{- end }}

{{- define "gateway.deployment" -}}
{{- if include "gateway.enabled" . }}
{{- $root := .root -}}
{{- $g := $root.Values.global -}}
{{- $app := index $root.Values.apps .name -}}
{{- $autoscaling := include "gateway.overlay" (list $g.autoscaling $app.autoscaling) | fromJson -}}
{{- $probes := include "gateway.overlay" (list $g.probes $app.probes) | fromJson -}}
{{- $grace := ternary $app.terminationGracePeriodSeconds $g.terminationGracePeriodSeconds (hasKey $app "terminationGracePeriodSeconds") -}}
{{- $maxOldSpaceMb := ternary $app.maxOldSpaceMb $g.maxOldSpaceMb (hasKey $app "maxOldSpaceMb") -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .name }}
  labels:
    {{- include "gateway.labels" . | nindent 4 }}
spec:
  {{- if not $autoscaling.enabled }}
  replicas: {{ ternary $app.replicas $g.replicas (hasKey $app "replicas") }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "gateway.selectorLabels" . | nindent 6 }}
  strategy:
    type: RollingUpdate
    rollingUpdate: { maxUnavailable: 0, maxSurge: 1 }
  template:
    metadata:
      labels:
        {{- include "gateway.labels" . | nindent 8 }}
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ $app.opsPort | quote }}
        prometheus.io/path: /metrics
        {{- with (include "gateway.overlay" (list $g.podAnnotations $app.podAnnotations) | fromJson) }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      {{- include "gateway.podSecurity" . | nindent 6 }}
      # Longer than preStop's sleep plus the app's drain (onShutdown gives it 25 s).
      terminationGracePeriodSeconds: {{ $grace }}
      containers:
        - name: {{ .name }}
          image: {{ include "gateway.image" . | quote }}
          imagePullPolicy: {{ include "gateway.imagePullPolicy" . }}
          # V8's old-space cap (maxOldSpaceMb): without it V8 lets garbage grow with the node's memory.
          command: ["node", "--max-old-space-size={{ $maxOldSpaceMb | int }}", "dist/apps/{{ .name }}/main.js"]
          ports:
            - { name: {{ $app.kind }}, containerPort: {{ $app.port }} }
            - { name: ops, containerPort: {{ $app.opsPort }} }
          env:
            {{- include "gateway.env" . | nindent 12 }}
          {{- with ($app.envFrom | default $g.envFrom) }}
          envFrom:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          resources:
            {{- toYaml ($app.resources | default $g.resources) | nindent 12 }}
          {{- if eq $app.kind "grpc" }}
          # grpc.health.v1 on the service port: the server is up (startup) and still answering (liveness).
          startupProbe:
            grpc: { port: {{ $app.port }} }
            periodSeconds: 2
            failureThreshold: {{ $probes.startupFailureThreshold }}
          livenessProbe:
            grpc: { port: {{ $app.port }} }
            periodSeconds: {{ $probes.periodSeconds }}
            timeoutSeconds: {{ $probes.timeoutSeconds }}
            failureThreshold: {{ $probes.failureThreshold }}
          {{- else }}
          startupProbe:
            httpGet: { path: /healthz, port: ops }
            periodSeconds: 2
            failureThreshold: {{ $probes.startupFailureThreshold }}
          livenessProbe:
            httpGet: { path: /healthz, port: ops }
            periodSeconds: {{ $probes.periodSeconds }}
            timeoutSeconds: {{ $probes.timeoutSeconds }}
            failureThreshold: {{ $probes.failureThreshold }}
          {{- end }}
          # Ready only when the app's dependencies are (bus, Redis...): /readyz on the ops port.
          readinessProbe:
            httpGet: { path: /readyz, port: ops }
            periodSeconds: {{ $probes.periodSeconds }}
            timeoutSeconds: {{ $probes.timeoutSeconds }}
            failureThreshold: {{ $probes.failureThreshold }}
          lifecycle:
            # Endpoints are removed asynchronously; keep serving briefly before SIGTERM starts the drain.
            preStop:
              exec: { command: ["sleep", "{{ $g.preStopSleepSeconds }}"] }
          {{- include "gateway.containerSecurity" . | nindent 10 }}
          volumeMounts:
            - { name: tmp, mountPath: /tmp }
      volumes:
        - { name: tmp, emptyDir: {} }
      {{- with ($app.nodeSelector | default $g.nodeSelector) }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with ($app.tolerations | default $g.tolerations) }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with ($app.affinity | default $g.affinity) }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end }}
{{- end }}

{{- define "gateway.service" -}}
{{- if include "gateway.enabled" . }}
{{- $app := index .root.Values.apps .name -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ .name }}
  labels:
    {{- include "gateway.labels" . | nindent 4 }}
spec:
  type: {{ $app.serviceType | default "ClusterIP" }}
  selector:
    {{- include "gateway.selectorLabels" . | nindent 4 }}
  ports:
    - { name: {{ $app.kind }}, port: {{ $app.port }}, targetPort: {{ $app.kind }}, appProtocol: {{ $app.kind }} }
    - { name: ops, port: {{ $app.opsPort }}, targetPort: ops, appProtocol: http }
{{- end }}
{{- end }}

{{- define "gateway.hpa" -}}
{{- if include "gateway.enabled" . }}
{{- $app := index .root.Values.apps .name -}}
{{- $autoscaling := include "gateway.overlay" (list .root.Values.global.autoscaling $app.autoscaling) | fromJson -}}
{{- if $autoscaling.enabled }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ .name }}
  labels:
    {{- include "gateway.labels" . | nindent 4 }}
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: {{ .name }} }
  minReplicas: {{ $autoscaling.minReplicas }}
  maxReplicas: {{ $autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target: { type: Utilization, averageUtilization: {{ $autoscaling.targetCPUUtilizationPercentage }} }
{{- end }}
{{- end }}
{{- end }}

{{/* minAvailable or maxUnavailable: the app's if it names either, otherwise the global one. */}}
{{- define "gateway.pdb" -}}
{{- if include "gateway.enabled" . }}
{{- $app := index .root.Values.apps .name -}}
{{- $global := .root.Values.global.podDisruptionBudget -}}
{{- $own := $app.podDisruptionBudget | default dict -}}
{{- $enabled := ternary $own.enabled $global.enabled (hasKey $own "enabled") -}}
{{- $budget := ternary $own $global (or (hasKey $own "minAvailable") (hasKey $own "maxUnavailable")) -}}
{{- if $enabled }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ .name }}
  labels:
    {{- include "gateway.labels" . | nindent 4 }}
spec:
  selector:
    matchLabels:
      {{- include "gateway.selectorLabels" . | nindent 6 }}
  {{- if hasKey $budget "minAvailable" }}
  minAvailable: {{ $budget.minAvailable | toYaml }}
  {{- else }}
  maxUnavailable: {{ $budget.maxUnavailable | toYaml }}
  {{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The app's database migrations, applied once per install/upgrade before any new replica starts
(the apps' own start-up run then finds nothing to apply). A failed Job fails the release and
stays for `kubectl logs`; the next attempt replaces it.
*/}}
{{- define "gateway.migrationsJob" -}}
{{- $root := .root -}}
{{- $g := $root.Values.global -}}
{{- $m := $root.Values.migrations -}}
{{- $app := index $root.Values.apps .name -}}
{{- if and (include "gateway.enabled" .) $m.enabled $app.database }}
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate-{{ .name }}
  labels:
    {{- include "gateway.labels" . | nindent 4 }}
    app.kubernetes.io/component: migrations
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "-5"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  backoffLimit: {{ $m.backoffLimit }}
  activeDeadlineSeconds: {{ $m.activeDeadlineSeconds }}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: migrate-{{ .name }}
        app.kubernetes.io/instance: {{ $root.Release.Name }}
        app.kubernetes.io/component: migrations
    spec:
      restartPolicy: Never
      {{- include "gateway.podSecurity" . | nindent 6 }}
      containers:
        - name: migrate
          image: {{ include "gateway.image" . | quote }}
          imagePullPolicy: {{ include "gateway.imagePullPolicy" . }}
          command: ["node", "dist/apps/migrator/main.js"]
          env:
            - name: MIGRATE_APP
              value: {{ .name }}
            - name: LOG_LEVEL
              value: {{ $app.logLevel | default $g.logLevel | quote }}
            - name: DATABASE_URL
              valueFrom:
                secretKeyRef: { name: {{ $app.database.secretName | default $g.secretName }}, key: {{ $app.database.secretKey }} }
            - name: DATABASE_SCHEMA
              value: {{ $app.database.schema | default "public" | quote }}
          resources:
            {{- toYaml $m.resources | nindent 12 }}
          {{- include "gateway.containerSecurity" . | nindent 10 }}
{{- end }}
{{- end }}
