import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { Loading } from '@/components/loading';
import { useServers } from '@/hooks/use-servers';
import type { Knob, RunField, Server } from '@/lib/api-schemas';

import { getLabFields } from '../../api/lab';
import { useLabEdits } from '../../hooks/use-lab-edits';
import { blockingProblems, problemReason, setupProblems, type LabProblem } from '../../lib/lab-checks';
import { describeSeconds, planFor, plannedSeconds, setupFromSearch, setupToSearch, type LabSetup } from '../../lib/lab-setup';
import { wordLabFields } from '../../lib/lab-words';
import { ExperimentControls } from '../experiment-controls';
import { ExperimentWidget } from '../experiment-widget';
import { SeriesWidget } from '../series-widget';

import { LabForm } from './lab-form';

import './lab.css';

function knobsByServer(servers: Server[]): Record<string, Knob[]> {
  return Object.fromEntries(servers.map((s) => [s.id, s.knobs]));
}

/** Knobs set back to their catalog default are not worth carrying in the URL or the request. */
function withoutDefaultKnobs(setup: LabSetup, knobs: Record<string, Knob[]>): LabSetup {
  const kept = Object.entries(setup.knobs).map(([server, values]) => [
    server,
    Object.fromEntries(Object.entries(values).filter(([name, v]) => knobs[server]?.find((k) => k.name === name)?.default !== v)),
  ]);
  return { ...setup, knobs: Object.fromEntries(kept) as LabSetup['knobs'] };
}

interface LabResultProps {
  setup: LabSetup;
  fields: RunField[];
  /** What stops Run (each is also said beside its field); empty when it can run. */
  blocking: LabProblem[];
  /** The server each of the learner's edits in the setup edits (useLabEdits). */
  bases: Record<string, string>;
}

/** Run, shown from the start: disabled, with the first thing to fix as its reason (and how many
 *  more the form marks), until the setup can run. */
function BlockedRun({ blocking }: { blocking: LabProblem[] }) {
  const { t } = useTranslation('bench');
  const [first] = blocking;
  const reason = first ? problemReason(first, t) : '';
  const more = blocking.length - 1;
  return (
    <div className="lab-result" data-testid="lab-blocked">
      <ExperimentControls
        runLabel={t('controls.run')}
        // A disabled button is never pressed: there is nothing to run yet.
        onRun={() => undefined}
        onCancel={null}
        blocked={more > 0 ? t('lab.problem.andMore', { first: reason, count: more }) : reason}
        busy={false}
      />
    </div>
  );
}

/** What the setup runs as, and its widget (Run, live charts, results), or Run disabled with why. */
function LabResult({ setup, fields, blocking, bases }: LabResultProps) {
  const { t } = useTranslation('bench');
  const plan = useMemo(() => (blocking.length === 0 ? planFor(setup, fields, t, bases) : null), [setup, fields, blocking, t, bases]);
  if (!plan) return <BlockedRun blocking={blocking} />;
  const runs = plan.kind === 'run' ? 1 : plan.sweep.servers.length * plan.sweep.values.length;
  const key = JSON.stringify(plan.kind === 'run' ? plan.request : plan.sweep);
  return (
    <div className="lab-result">
      <p className="lab-result__plan" data-testid="lab-plan">
        {t(runs === 1 ? 'lab.planRun' : 'lab.planSweep', { runs, duration: describeSeconds(plannedSeconds(setup, fields), t) })}
      </p>
      {plan.kind === 'run' ? (
        <ExperimentWidget key={key} title={plan.title} request={plan.request} runKey={`lab:${key}`} />
      ) : (
        <SeriesWidget key={key} title={plan.title} sweep={plan.sweep} />
      )}
    </div>
  );
}

/**
 * The lab (`#/lab`): any run or comparison the course's servers allow. Every field is set from
 * what the backend says of it (label, unit, range, help) and the setup lives in the URL, so a
 * lab experiment can be linked and reopened.
 */
export function LabPage() {
  const { t } = useTranslation('bench');
  const [params, setParams] = useSearchParams();
  const catalog = useServers();
  const asked = useQuery({ queryKey: ['lab-fields'], queryFn: ({ signal }) => getLabFields(signal), staleTime: Infinity });
  // In the reader's words: the form's labels, units and help, and every problem that names them.
  const fields = useMemo(() => ({ ...asked, data: asked.data && wordLabFields(asked.data, t) }), [asked, t]);
  // The learner's edits among the servers (`variant:<id>`) join the catalog as servers of their own.
  const edits = useLabEdits((params.get('servers') ?? '').split(','), catalog.data);
  const servers = useMemo(() => ({ error: catalog.error, data: catalog.data && [...catalog.data, ...edits.servers] }), [catalog.error, catalog.data, edits.servers]);
  const knobs = useMemo(() => knobsByServer(servers.data ?? []), [servers.data]);
  const setup = useMemo(() => setupFromSearch(params, fields.data?.fields ?? [], knobs), [params, fields.data, knobs]);

  if (servers.error ?? fields.error) {
    return (
      <p role="alert" className="lab-error">
        {t('lab.loadFailed', { error: (servers.error ?? fields.error)?.message ?? '' })}
      </p>
    );
  }
  if (!servers.data || !fields.data || edits.pending) return <Loading />;
  const labFields = fields.data.fields;
  const problems = [...edits.problems, ...setupProblems(setup, fields.data, servers.data, t)];
  const change = (next: LabSetup) => { setParams(setupToSearch(withoutDefaultKnobs(next, knobs), labFields), { replace: true }); };

  return (
    <div className="lab">
      <h1>{t('lab.heading')}</h1>
      <p className="lab__intro">
        <Trans t={t} i18nKey="lab.intro" components={{ history: <Link to="/history" /> }} />
      </p>
      <div className="lab__columns">
        <LabForm setup={setup} onChange={change} fields={labFields} servers={servers.data} problems={problems} />
        <LabResult setup={setup} fields={labFields} blocking={blockingProblems(problems)} bases={edits.bases} />
      </div>
    </div>
  );
}
