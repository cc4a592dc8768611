/* The gateway in WooCommerce's Checkout block: the label, the description and a choice of method,
   sent to the server as `rps_method` (WooCommerce copies payment data into the classic $_POST). */
( function () {
	const { registerPaymentMethod } = window.wc.wcBlocksRegistry;
	const { getSetting } = window.wc.wcSettings;
	const { createElement: el, useState, useEffect } = window.wp.element;
	const { decodeEntities } = window.wp.htmlEntities;
	const settings = getSetting( 'rps_data', {} );
	const title = decodeEntities( settings.title || '' );
	const methods = Array.isArray( settings.methods ) ? settings.methods : [];

	function Content( props ) {
		const [ method, setMethod ] = useState( methods.length ? methods[ 0 ].id : '' );
		const { onPaymentSetup } = props.eventRegistration;
		useEffect( () => onPaymentSetup( () => ( { type: 'success', meta: { paymentMethodData: { rps_method: method } } } ) ), [ onPaymentSetup, method ] );
		return el(
			'div',
			null,
			el( 'p', null, decodeEntities( settings.description || '' ) ),
			el(
				'fieldset',
				null,
				methods.map( ( option ) =>
					el(
						'label',
						{ key: option.id, style: { display: 'block' } },
						el( 'input', { type: 'radio', name: 'rps_method', value: option.id, checked: method === option.id, onChange: () => setMethod( option.id ) } ),
						' ',
						option.label
					)
				)
			)
		);
	}

	registerPaymentMethod( {
		name: 'rps',
		label: el( 'span', null, title ),
		ariaLabel: title,
		content: el( Content ),
		edit: el( Content ),
		canMakePayment: () => methods.length > 0,
		supports: { features: settings.supports || [ 'products' ] },
	} );
} )();
