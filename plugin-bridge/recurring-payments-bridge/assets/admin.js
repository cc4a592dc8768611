/* The admin page: Test connection, Connect this store, and the syncs with their progress, polled
   every two seconds while a run is going. Everything goes through admin-ajax with the page's nonce. */
( function () {
	const { ajaxUrl, nonce, i18n } = window.rpsAdmin;
	const POLL_MS = 2000;

	async function call( action, fields = {} ) {
		const body = new URLSearchParams( { action, _wpnonce: nonce, ...fields } );
		const response = await fetch( ajaxUrl, { method: 'POST', credentials: 'same-origin', body } );
		const answer = await response.json().catch( () => ( { success: false, data: { message: i18n.error } } ) );
		if ( ! answer.success ) throw new Error( ( answer.data && answer.data.message ) || i18n.error );
		return answer.data;
	}

	function cell( text ) {
		const td = document.createElement( 'td' );
		td.textContent = text;
		return td;
	}

	function showRuns( runs ) {
		const body = document.querySelector( '#rps-sync-runs tbody' );
		body.replaceChildren(
			...runs.map( ( run ) => {
				const row = document.createElement( 'tr' );
				const p = run.progress;
				row.append(
					cell( run.kind ),
					cell( i18n[ run.status ] || run.status ),
					cell( run.started_at ),
					cell( `${ p.created } / ${ p.updated } / ${ p.failed }` ),
					cell( run.errors.map( ( e ) => `${ e.record }: ${ e.error }` ).join( '; ' ) )
				);
				return row;
			} )
		);
	}

	async function refresh() {
		const { runs } = await call( 'rps_sync_runs' );
		showRuns( runs );
		const running = runs.find( ( run ) => run.status === 'running' );
		const progress = document.getElementById( 'rps-sync-progress' );
		if ( running ) {
			const p = running.progress;
			progress.textContent = `${ i18n.running } ${ p.pages_done }/${ p.pages_total ?? '?' } ${ i18n.pages }`;
			setTimeout( () => refresh().catch( ( error ) => ( progress.textContent = error.message ) ), POLL_MS );
		} else {
			progress.textContent = '';
		}
	}

	document.querySelectorAll( '[data-rps-action]' ).forEach( ( button ) =>
		button.addEventListener( 'click', async () => {
			const result = document.getElementById( 'rps-connection-result' );
			button.disabled = true;
			try {
				result.textContent = ( await call( button.dataset.rpsAction ) ).message;
			} catch ( error ) {
				result.textContent = error.message;
			} finally {
				button.disabled = false;
			}
		} )
	);

	document.querySelectorAll( '[data-rps-sync]' ).forEach( ( button ) =>
		button.addEventListener( 'click', async () => {
			const progress = document.getElementById( 'rps-sync-progress' );
			try {
				await call( 'rps_start_sync', { kind: button.dataset.rpsSync } );
				await refresh();
			} catch ( error ) {
				progress.textContent = error.message;
			}
		} )
	);

	refresh().catch( () => {} );
} )();
