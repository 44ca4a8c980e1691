import { useParams, useSearchParams } from 'react-router';

import { EditIndex, EditPage } from '@/features/edit';

/** /#/edit/:server (?from=<variant id>): a C server's model file in the editor. */
export function EditRoute() {
  const { server = '' } = useParams();
  const [params] = useSearchParams();
  const from = params.get('from');
  return <EditPage key={`${server}:${from ?? ''}`} serverId={server} from={from} />;
}

/** /#/edit: the servers that can be edited. */
export function EditIndexRoute() {
  return <EditIndex />;
}
