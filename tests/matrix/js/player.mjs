// One Matrix player as Element Web is one: matrix-js-sdk with its Rust crypto, driven by the
// Python tests (tests/matrix/js_player.py) over stdin/stdout, one JSON object a line.
//
// Request:  {"id": 1, "op": "login", ...arguments}
// Answer:   {"id": 1, "ok": true, "result": ...}  or  {"id": 1, "ok": false, "error": "..."}
//
// stdout carries the answers only: everything the SDK logs goes to stderr (the Python side
// keeps it in a file and shows its tail when a test fails). Each expectation a test makes is
// read through the SDK call a client makes for it, named beside each operation below.

import readline from "node:readline";

// The SDK logs through `console`; Node prints console.log/info/debug on stdout. Route every
// console method to stderr before the SDK is loaded, so stdout holds answers alone.
for (const name of ["log", "info", "debug", "warn", "trace"]) {
    console[name] = (...args) => console.error(...args);
}

// matrix-js-sdk asks for Node 22; of Node 22's additions it uses `Promise.withResolvers` alone
// (ES2024), which Node 20 (Debian's, on the test machines) lacks: supplied here, as specified.
Promise.withResolvers ??= function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((yes, no) => {
        resolve = yes;
        reject = no;
    });
    return { promise, resolve, reject };
};

const sdk = await import("matrix-js-sdk");
const cryptoApi = await import("matrix-js-sdk/lib/crypto-api/index.js");
const { PollResponseEvent } = await import(
    "matrix-js-sdk/lib/extensible_events_v1/PollResponseEvent.js");
const { logger } = await import("matrix-js-sdk/lib/logger.js");
logger.setLevel(process.env.MATRIX_JS_LOG_LEVEL || "warn");

const MEGOLM = "m.megolm.v1.aes-sha2";
let client = null;
let password = null;

function send(answer) {
    process.stdout.write(JSON.stringify(answer) + "\n");
}

function room(roomId) {
    const found = client.getRoom(roomId);
    if (!found) throw new Error(`room ${roomId} not known (yet)`);
    return found;
}

function waitFor(emitter, event, test, timeoutMs) {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
            emitter.off(event, listener);
            reject(new Error(`no ${event} within ${timeoutMs} ms`));
        }, timeoutMs);
        const listener = (...args) => {
            if (test(...args)) {
                clearTimeout(timer);
                emitter.off(event, listener);
                resolve();
            }
        };
        emitter.on(event, listener);
    });
}

// What a client's UI needs from one timeline event: its clear content, whether and why it
// could not be decrypted (`MatrixEvent.decryptionFailureReason`, a DecryptionFailureCode), and
// whether it notifies and highlights this user (`MatrixClient.getPushActionsForEvent`: the
// SDK's push-rule processor over the account's push rules, as Element's badges use it).
function describe(event) {
    const actions = event.getSender() === client.getUserId()
        ? null : client.getPushActionsForEvent(event, true);
    return {
        event_id: event.getId(),
        sender: event.getSender(),
        type: event.getType(),
        content: event.getContent(),
        relation: event.getRelation(),
        encrypted: event.isEncrypted(),
        decryption_failure: event.isDecryptionFailure() ? event.decryptionFailureReason : null,
        sender_device: event.isEncrypted() ? event.getWireContent().device_id ?? null : null,
        ts: event.getTs(),
        replaced_by: event.replacingEventId() ?? null,
        notify: Boolean(actions?.notify),
        highlight: Boolean(actions?.tweaks?.highlight),
        sound: actions?.tweaks?.sound ?? null,
    };
}

// Element's count of a poll (element-web src/components/views/messages/MPollBody.tsx:
// allVotes, collectUserVotes, countVotes): each sender's newest response among those the
// SDK's Poll model kept (`Poll.getResponses()`, which drops responses after a valid end),
// validated against the poll (`PollResponseEvent.validateAgainst`: a response with an
// unknown answer or too many is spoiled and counts for nothing).
async function describePoll(poll) {
    const responses = await poll.getResponses();
    // the first page of /relations comes back at once, the others are fetched behind it
    // (Synapse pages 5 relations by default): Element re-renders as they come; wait for all
    while (poll.isFetchingResponses) await new Promise((resolve) => setTimeout(resolve, 50));
    const newest = new Map();
    for (const event of responses.getRelations()) {
        const seen = newest.get(event.getSender());
        if (!seen || seen.getTs() < event.getTs()) newest.set(event.getSender(), event);
    }
    const counts = Object.fromEntries(poll.pollEvent.answers.map((a) => [a.id, 0]));
    const votes = {};
    for (const [sender, event] of newest) {
        const response = event.unstableExtensibleEvent;
        const answers = response?.answerIds ?? [];
        const check = PollResponseEvent.from(answers, "$irrelevant");
        check.validateAgainst(poll.pollEvent);
        votes[sender] = check.spoiled ? null : check.answerIds;
        if (!check.spoiled) for (const id of check.answerIds) counts[id] += 1;
    }
    return {
        poll_id: poll.pollId,
        question: poll.pollEvent.question.text,
        kind: poll.pollEvent.kind.name,
        max_selections: poll.pollEvent.maxSelections,
        answers: poll.pollEvent.answers.map((a) => ({ id: a.id, text: a.text })),
        ended: poll.isEnded,
        end_event_id: poll.endEventId ?? null,
        undecryptable: poll.undecryptableRelationsCount,
        counts,
        votes,
    };
}

const ops = {
    // A password login makes a new device, as signing in to Element does; the Rust crypto
    // runs in memory (`useIndexedDB: false`, the SDK's way in Node), then the client syncs.
    async login({ base_url, user, password: secret, device_name }) {
        const anonymous = sdk.createClient({ baseUrl: base_url });
        const session = await anonymous.loginRequest({
            type: "m.login.password",
            identifier: { type: "m.id.user", user },
            password: secret,
            initial_device_display_name: device_name ?? "js-sdk player",
        });
        password = secret;
        client = sdk.createClient({
            baseUrl: base_url,
            userId: session.user_id,
            deviceId: session.device_id,
            accessToken: session.access_token,
        });
        await client.initRustCrypto({ useIndexedDB: false });
        const ready = waitFor(client, sdk.ClientEvent.Sync, (state) => state === "PREPARED",
            60000);
        // Element's filter, with room for a busy game between two syncs: a limited sync
        // (Synapse sends 10 events by default) would start a new live timeline, and what
        // came before the gap would be missing from `timeline` below
        const filter = new sdk.Filter(session.user_id);
        filter.setUnreadThreadNotifications(true);
        filter.setTimelineLimit(1000);
        await client.startClient({ initialSyncLimit: 100, filter });
        await ready;
        return { user_id: session.user_id, device_id: session.device_id };
    },

    // What Element does for a new account: cross-signing keys made and uploaded, with the
    // account's password for the user-interactive auth (`CryptoApi.bootstrapCrossSigning`).
    async bootstrap_cross_signing() {
        const crypto = client.getCrypto();
        await crypto.bootstrapCrossSigning({
            authUploadDeviceSigningKeys: async (makeRequest) => {
                await makeRequest({
                    type: "m.login.password",
                    identifier: { type: "m.id.user", user: client.getUserId() },
                    password,
                });
            },
        });
        return { ready: await crypto.isCrossSigningReady() };
    },

    // "Exclude insecure devices" (Settings > Security) is OnlySignedDevicesIsolationMode:
    // no room keys to, and no decryption from, devices their owner has not cross-signed.
    async isolation({ mode }) {
        const chosen = mode === "signed"
            ? new cryptoApi.OnlySignedDevicesIsolationMode()
            : new cryptoApi.AllDevicesIsolationMode(false);
        client.getCrypto().setDeviceIsolationMode(chosen);
        return mode;
    },

    async invites() {
        return client.getRooms().filter((r) => r.getMyMembership() === "invite")
            .map((r) => ({ room_id: r.roomId,
                           inviter: r.getMember(client.getUserId())?.events.member
                               ?.getSender() ?? null }));
    },

    async join({ room_id }) {
        await client.joinRoom(room_id);
        return room_id;
    },

    async leave({ room_id }) {
        await client.leave(room_id);
        return room_id;
    },

    // Text as a composer sends it: encrypted by the SDK when the room says so.
    async send_text({ room_id, text }) {
        const sent = await client.sendTextMessage(room_id, text);
        return sent.event_id;
    },

    async send_event({ room_id, type, content }) {
        const sent = await client.sendEvent(room_id, type, content);
        return sent.event_id;
    },

    // Element's "Start chat" (element-web src/createRoom.ts and utils/direct-messages.ts):
    // a trusted private chat marked `is_direct`, encrypted from the start, noted in m.direct.
    async create_dm({ user_id }) {
        const created = await client.createRoom({
            preset: sdk.Preset.TrustedPrivateChat,
            visibility: sdk.Visibility.Private,
            is_direct: true,
            invite: [user_id],
            initial_state: [{ type: "m.room.encryption", state_key: "",
                              content: { algorithm: MEGOLM } }],
        });
        const direct = client.getAccountData(sdk.EventType.Direct)?.getContent() ?? {};
        direct[user_id] = [...(direct[user_id] ?? []), created.room_id];
        await client.setAccountData(sdk.EventType.Direct, direct);
        return created.room_id;
    },

    async membership({ room_id, user_id }) {
        const found = client.getRoom(room_id);
        return found?.getMember(user_id ?? client.getUserId())?.membership ?? null;
    },

    async display_name({ room_id, user_id }) {
        return room(room_id).getMember(user_id)?.name ?? null;
    },

    async timeline({ room_id }) {
        return room(room_id).getLiveTimeline().getEvents().map(describe);
    },

    // The SDK's poll model (`Room.polls`, `Poll`), counted as Element counts.
    async polls({ room_id }) {
        const found = [...room(room_id).polls.values()];
        return Promise.all(found.map(describePoll));
    },

    async vote({ room_id, poll_id, answer_ids }) {
        const response = PollResponseEvent.from(answer_ids, poll_id).serialize();
        const sent = await client.sendEvent(room_id, response.type, response.content);
        return sent.event_id;
    },

    // How this client trusts another user's device (`CryptoApi.getDeviceVerificationStatus`):
    // `signedByOwner` is what OnlySignedDevicesIsolationMode asks of a sender.
    async device_trust({ user_id, device_id }) {
        const crypto = client.getCrypto();
        await crypto.getUserDeviceInfo([user_id], true);
        const status = await crypto.getDeviceVerificationStatus(user_id, device_id);
        const identity = await crypto.getUserVerificationStatus(user_id);
        return {
            known: status !== null,
            signed_by_owner: status?.signedByOwner ?? false,
            cross_signing_verified: status?.crossSigningVerified ?? false,
            user_has_cross_signing_keys: await crypto.userHasCrossSigningKeys(user_id, true),
            user_verified: identity.isCrossSigningVerified(),
        };
    },

    // The shield Element draws beside a decrypted event (`CryptoApi.getEncryptionInfoForEvent`).
    async shield({ room_id, event_id }) {
        const event = room(room_id).findEventById(event_id);
        if (!event) throw new Error(`event ${event_id} not in the timeline`);
        const info = await client.getCrypto().getEncryptionInfoForEvent(event);
        return info ? { colour: info.shieldColour, reason: info.shieldReason } : null;
    },

    async stop() {
        client?.stopClient();
        return null;
    },
};

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
    if (!line.trim()) continue;
    const { id, op, ...args } = JSON.parse(line);
    try {
        if (!(op in ops)) throw new Error(`unknown op ${op}`);
        if (op !== "login" && client === null) throw new Error("not logged in");
        send({ id, ok: true, result: (await ops[op](args)) ?? null });
    } catch (err) {
        send({ id, ok: false, error: String(err?.stack ?? err) });
    }
    if (op === "stop") break;
}
client?.stopClient();
process.exit(0);
