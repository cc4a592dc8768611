/* The recurring terms in the Cart and Checkout blocks: the Store API gives each cart item its format
   strings (extensions.rps, made and translated in PHP); empty ones leave the price as it is. */
( function () {
	const { registerCheckoutFilters } = window.wc.blocksCheckout;
	const formatOf = ( field ) => ( value, extensions ) => {
		const format = extensions && extensions.rps ? extensions.rps[ field ] : '';
		return typeof format === 'string' && format.indexOf( '<price/>' ) !== -1 ? format : value;
	};
	registerCheckoutFilters( 'recurring-payments-bridge', {
		subtotalPriceFormat: formatOf( 'price_format' ),
		cartItemPrice: formatOf( 'line_format' ),
	} );
} )();
