-- The scheduled jobs as pg-boss keeps them (P-80): every background job is a pg-boss cron schedule worked by
-- the worker process. For the health report: each schedule (name, cron, time zone), its newest run that started
-- (state and times, from pgboss.job or pgboss.archive) and how many of its jobs wait.
--
-- SECURITY DEFINER: pg-boss's schema belongs to the database owner and no API role may read it (its rows carry job
-- data). The function returns names, crons, states, times and counts only, and only service_role may call it.
-- pgboss.schedule is missing until a worker first started: then `pgboss` is false and the list empty.
create or replace function public.scheduled_jobs_health()
  returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
begin
  if to_regclass('pgboss.schedule') is null or to_regclass('pgboss.archive') is null then
    return jsonb_build_object('pgboss', false, 'schedules', '[]'::jsonb);
  end if;
  return jsonb_build_object('pgboss', true, 'schedules', coalesce((
    select jsonb_agg(jsonb_build_object(
             'name', s.name,
             'cron', s.cron,
             'timezone', s.timezone,
             'last_state', l.state,
             'last_started_at', l.started_on,
             'last_completed_at', l.completed_on,
             'waiting', (select count(*) from pgboss.job w where w.name = s.name and w.state in ('created', 'retry')))
           order by s.name)
      from pgboss.schedule s
      left join lateral (
        select r.state, r.started_on, r.completed_on
          from (select j.state::text as state, j.started_on, j.completed_on from pgboss.job j
                 where j.name = s.name and j.started_on is not null
                union all
                select a.state::text, a.started_on, a.completed_on from pgboss.archive a
                 where a.name = s.name and a.started_on is not null) r
         order by r.started_on desc
         limit 1) l on true), '[]'::jsonb));
end
$$;

revoke all on function public.scheduled_jobs_health() from public, anon, authenticated;
grant execute on function public.scheduled_jobs_health() to service_role;
