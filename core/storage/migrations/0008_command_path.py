"""The command path's reads, made cheap.

Every command finds its chat's game by chat and status: without an index that is a scan of
all the running games (0.5 ms a command at 1,000 games, growing with them).

On PostgreSQL an update's arrival is one server-side function (`nightfall_arrive`, called by
`core.service.rows.repository.postgres`): the update marked processed, the chat read, its game locked, then
the sender and the game's seats read. A plain statement reads everything with the snapshot
of its start, so seats read in the statement that waited for the game's lock could be older
than the command that held it; a VOLATILE function takes a fresh snapshot for each of its
statements, so what it reads after the lock is what the lock's last holder left. One round
trip instead of three. The function returns JSON, column for column as the tables are
(`to_jsonb` of whole rows; the game's snapshot, 9 KB, left out before), so that later
columns need no new version of it.
"""

from typing import Any

from tortoise import migrations
from tortoise.indexes import Index
from tortoise.migrations import operations as ops

ARRIVE = """
CREATE OR REPLACE FUNCTION nightfall_arrive(p_platform text, p_update text, p_sender text,
                                            p_chat text) RETURNS json
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_chat_id integer;
    v_chat json;
    v_game jsonb;
    v_game_id integer;
    v_row game;
BEGIN
    INSERT INTO processed_update (platform, update_id) VALUES (p_platform, p_update)
        ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN json_build_object('fresh', false);  -- a duplicate: already applied
    END IF;
    SELECT c.id, row_to_json(c) INTO v_chat_id, v_chat FROM chat c
        WHERE c.platform = p_platform AND c.ref = p_chat;
    IF v_chat_id IS NOT NULL THEN
        SELECT * INTO v_row FROM game g
            WHERE g.chat_id = v_chat_id AND g.status IN ('lobby', 'running')
            ORDER BY g.id LIMIT 1 FOR UPDATE;
        IF FOUND THEN
            -- the snapshot is left out before the row becomes JSON: it is not read at all
            v_game_id := v_row.id;
            v_row.snapshot := NULL;
            v_game := to_jsonb(v_row) - 'snapshot';
        END IF;
    END IF;
    -- each statement from here on reads with a snapshot taken after the lock
    RETURN json_build_object(
        'fresh', true,
        'person', (SELECT row_to_json(i) FROM identity i
                   WHERE i.platform = p_platform AND i.ref = p_sender),
        'chat', v_chat,
        'game', v_game,
        'seats', CASE WHEN v_game_id IS NULL THEN NULL ELSE coalesce(
            (SELECT json_agg(json_build_object('pid', s.pid, 'identity', row_to_json(i))
                             ORDER BY s.id)
             FROM seat s JOIN identity i ON i.id = s.identity_id
             WHERE s.game_id = v_game_id AND s.active), '[]'::json) END);
END $$;
"""


async def create_arrive(apps: Any, schema_editor: Any) -> None:
    if schema_editor.client.capabilities.dialect == "postgres":
        await schema_editor.client.execute_script(ARRIVE)


async def drop_arrive(apps: Any, schema_editor: Any) -> None:
    if schema_editor.client.capabilities.dialect == "postgres":
        await schema_editor.client.execute_script(
            "DROP FUNCTION IF EXISTS nightfall_arrive(text, text, text, text)")


class Migration(migrations.Migration):
    dependencies = [('models', '0007_archive_token')]

    initial = False

    operations = [
        ops.AddIndex(
            model_name='GameRecord',
            index=Index(fields=['chat_id', 'status']),
        ),
        ops.RunPython(create_arrive, drop_arrive),
    ]
