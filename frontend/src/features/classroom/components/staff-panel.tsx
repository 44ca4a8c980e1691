import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { ActionError } from '@/components/action-error';
import { ErrorMessage, Loading } from '@/components/loading';

import { addStaff, getStaff, removeStaff } from '../api/classroom';

type Role = 'co-teacher' | 'assistant';

const staffKey = (id: string) => ['classroom', id, 'staff'] as const;

/**
 * Who teaches the class, and (for its own instructor) adding a co-teacher or a teaching
 * assistant by their instructor account's name, or taking one off.
 */
export function StaffPanel({ classId, owner }: { classId: string; owner: boolean }) {
  const { t } = useTranslation('classroom');
  const client = useQueryClient();
  const staff = useQuery({ queryKey: staffKey(classId), queryFn: ({ signal }) => getStaff(classId, signal) });
  const refresh = () => void client.invalidateQueries({ queryKey: staffKey(classId) });
  const add = useMutation({ mutationFn: ({ name, role }: { name: string; role: Role }) => addStaff(classId, name, role), onSuccess: refresh });
  const remove = useMutation({ mutationFn: (personId: string) => removeStaff(classId, personId), onSuccess: refresh });
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('assistant');
  if (staff.isPending) return <Loading label={t('staff.loading')} />;
  if (staff.isError) return <ErrorMessage title={t('staff.loadError')} error={staff.error} />;
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    add.mutate({ name, role }, { onSuccess: () => { setName(''); } });
  };
  return (
    <div className="live-panel" data-testid="staff-panel">
      <div>
        <ul data-testid="staff-list">
          {staff.data.map((member) => (
            <li key={member.id}>
              <strong>{member.name}</strong> · {t(`staff.role.${member.role}`)}{' '}
              {owner && member.role !== 'owner' ? (
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => { remove.mutate(member.id); }}
                  disabled={remove.isPending}
                  aria-label={t('staff.removeLabel', { name: member.name })}
                >
                  {t('staff.remove')}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
        <p className="class-header__meta">{t('staff.help')}</p>
      </div>
      {owner ? (
        <div>
          <form onSubmit={submit} aria-label={t('staff.add')}>
            <label>
              {t('staff.name')}
              <input required maxLength={100} value={name} onChange={(e) => { setName(e.target.value); }} />
            </label>
            <label>
              {t('staff.roleLabel')}
              <select value={role} onChange={(e) => { setRole(e.target.value as Role); }}>
                <option value="assistant">{t('staff.role.assistant')}</option>
                <option value="co-teacher">{t('staff.role.co-teacher')}</option>
              </select>
            </label>
            <button type="submit" className="button" disabled={add.isPending}>
              {t('staff.add')}
            </button>
          </form>
          <ActionError error={add.error ?? remove.error} />
        </div>
      ) : null}
    </div>
  );
}
