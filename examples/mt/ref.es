El ayuntamiento pasó un presupuesto reciente para escuelas públicas encima noche de martes.
La lluvia pesada causó inundar en varios barrios se acercan el río.
El museo abrirá una exposición reciente sobre Egipto antiguo mes próximo.
Mi hermana adquirió una poca casa en el campo último año.
El tren al aeropuerto estuvo retrasado por casi una hora esta mañana.
Los científicos han descubierto una especie reciente de rana en las montañas.
La empresa declaró que  contratará doscientos empleados.
Normalmente comemos la cena junta en siete en punto.
El presidente cumplido con labradores para hablar el precio de trigo.
Un fuego destruyó un almacén antiguo se acerca el puerto el domingo.
La biblioteca está cerrada en vacaciones públicas.
Nuestros vecinos están planeando una fiesta para el cumpleaños de su hija.
AL gobierno le gustaría construir más casas para familias jóvenes.
El equipo de fútbol ganó el campeonato después de una estación difícil.
Los precios de vegetales frescos han ascendido steeply desde el muelle.
Olvidó su paraguas en el restaurante.
El hospital necesita más enfermeros para preocuparse para pacientes ancianos.
Miles de ciudadanos marched a través del capitales de protestar contra la ley reciente.
La panadería en la esquina vende el pan mejor en pueblo.
El ministro prometió para cortar el precio de electricidad.
Lee el diario cada mañana antes de que obra.
El puente será cerrado para reparaciones durante el verano.
Los turistas llenaron las playas durante el fin de semana largo.
El profesor pidió el alumnado para escribir historia a escasa.
El banco central tasas de interés criado para el tercer tiempo este año.
Nuestro coche rompió abajo en la carretera, así que  llamamos un mecánico.
El parque reciente tiene un patio, un poco lago y árboles numerosos.
La policía detuvo dos hombres sospecharon de robar bicicletas.
El festival atrae músicos de en todo el mundo.
Me gustaría una copa de café con leche, complacer.
La fábrica cerrada porque la demanda para sus productos cayó.
El alcalde declaró que las carreteras serían limpiadas cada semana.
Niños en el paseo de pueblo tres kilómetros a escuela.
La tormenta golpeó abajo árboles y líneas de poder a través de la región.
Las ofertas universitarias cursos de lengua libre a refugiados.
Visitamos mis abuelos durante las vacaciones.
El precio de la gasolina caída para la segunda semana en una fila.
Un doctor joven inauguró una clínica en la parte más pobre de la ciudad.
El cantante anuló su concierto porque  era enferma.
El pueblo ha sólo un supermercado y dos pocas tiendas.
Los labradores están concernidos sobre la carencia de llover este verano.
La aerolínea añadió vuelos recientes entre las dos ciudades más grandes.
Mis obras de hermano como un ingeniero en una fábrica automovilística.
Los resultados de elección serán declarados mañana por la tarde.
El restaurante era lleno, así que  tuvimos que esperar exteriores.
La biblioteca escolar recibió centenares de libros recientes.
Los empleados en el puerto fueron en huelga para sueldos más altos.
El río es demasiado arriesgado para nadar después de la tormenta.
Ha sido aprendiendo para tocar el piano para tres años.
Los beneficios de la empresa cayeron debido a costes más altos.
El castillo antiguo en el cerro atrae visitantes numerosos.
Los voluntarios locales limpiaron la playa el sábado mañana.
El gobierno pasará más fondos en carreteras y vías.
Los niños tocaron en el jardín hasta que  oscureció.
La corte rehusó la apelación del alcalde anterior.
Nuestra oficina movió a un edificio más grande céntrico.
Los doctores recomiendan beber abundancia de agua en tiempo caliente.
La lonja vende fruta, pez y florece cada sábado.
Un terremoto fuerte sacudió la costa temprano esta mañana.
Mi padre cocina un almuerzo grande los domingos.
La línea de autobús reciente conecta los suburbios con el centro de ciudad.
El ministro de salud visitó el hospital después del accidente.
El precio de café ha plegado en los últimos dos años.
Necesitamos comprar una lavadora reciente.
La policía cerrada la carretera después de un camión overturned.
El hotel ofrece una vista preciosa de las montañas.
El alumnado protestado contra el aumento en tasas de matriculación.
El pueblo celebra su patrón con música y danza.
Un poco plano hizo un aterrizaje de emergencia en un campo.
Los empleados completaron el estadio reciente al frente de horario.
Las familias numerosas no pueden proporcionar para pagar su alquiler.
Los niños estuvieron entusiasmados sobre el viaje al zoológico.
El gobierno firmó un acuerdo de comercio con sus vecinos.
EL agua en el lago es bastante limpia para nadar.
La empresa pretende abrir una tienda reciente en el centro comercial.
Mi madre crece tomates y pimientos en su jardín.
El museo es libre para estudiantes los miércoles.
El tráfico era pesado en la carretera principal debido a un accidente.
El autocar del equipo dimitió después cinco derrotas en una fila.
Nuestros sueños de gato en el sofá toda tarde.
La ciudad plantará diez mil árboles sobre la década próxima.
El diario publicó una entrevista larga con el primer ministro.
El precio de viviente ha aumentado más rápido que sueldos.
Envió una carta a su amigo antiguo en Canadá.
El banco inauguró una rama reciente en la plaza de lonja.
La policía está buscando testigos al robo.
La sala de concierto era llena para la noche inaugural.
El gobierno está intentando cortar paro entre ciudadanos jóvenes.
Mi primo está estudiando medicina en la universidad.
El fuego de bosque era finalmente puesto fuera después de que cuatro días.
La tienda vende zapatos, bolsos y otros bienes de piel.
El presidente viajará a Brasil la semana que viene.
Los ciudadanos numerosos perdieron sus postes cuándo la mina cerró.
La ley reciente requiere todas motor para llevar cintas de escaño.
Miramos una película graciosa en el cine anoche.
El hospital inauguró una ala reciente para niños.
El director de la empresa estuvo acusado de fraude.
El tiempo será soleado y animar este fin de semana.
Los labradores vendieron sus manzanas en la lonja local.
Un puente reciente conectará la isla al mainland.
La mano de mosto del alumnado en sus ensayos por viernes.
Los miles de productos de la fábrica de botes cada día.
El primer ministro pidió tranquilo después de los disturbios.
Mi vecino toca la guitarra tarde en la noche.
El ayuntamiento votó para prohibir coches del pueblo antiguo.
El hombre antiguo anda su perro en el parque cada tarde.
El gobierno crió el sueldo mínimo por cinco por ciento.
El bote se hundió cerca la costa, pero todo el mundo estuvo rescatado.
Perdí mis tonos a algún lugar en la casa.
El cine asomará películas clásicas cada jueves.
Las exportaciones de coches cayeron steeply en el primer barrio.
El profesor reciente es muy popular con el alumnado.
La brigada de bomberos rescató una familia del edificio en llamas.
La tienda alrededor de la esquina es abierta hasta que medianoche.
Los científicos advierten que los glaciares están fundiendo más rápidos que esperó.
Plantamos flores a lo largo de la ruta delante puerta.
El aeropuerto estuvo cerrado debido a niebla gruesa.
La unión reclamó afecciones laborables mejores para enfermeros.
Mi abuela dice historias maravillosas sobre su niñez.
El ejército asistió para evacuar ciudadanos del inundó pueblos.
El restaurante reciente sirve comida del del sur del país.
Menos ciudadanos están comprando diarios que hace diez años.
Los niños cantaron canciones en el concierto escolar.
La empresa invertirá millones en energía solar.
La carretera al pueblo es estrecha y llena de agujeros.
La policía paró la motor para acelerar.
El parlamento pasó la ley de impuesto reciente por un margen estrecho.
Mis amigos y yo fueron acampar cerca el lago.
El hospital tiene un largo esperando lista para operaciones.
El precio de pan remontó otra vez este mes.
La tormenta forzó el transbordador para quedarse en el puerto.
Obra como periodista para una emisora radiofónica local.
El gobierno pretende cerrar tres poder de carbón canal.
La biblioteca organiza leer sesiones para niños jóvenes.
Los ladrones huyeron con joyas y dinero efectivo.
Nuestro tren llegado en Madrid sólo antes de que medianoche.
La empresa retiró miles de coches debido a un faulty freno.
Mi tío repara relojes antiguos en su poca tienda.
El hospital reciente tendrá cincocientas camas.
El partido estuvo aplazado debido a la nieve pesada.
El ministro dimitido después del escándalo acaecía público.
Adquirimos pez fresco de los pescadores en el puerto.
La escuela presentará comidas libres para todas las  pupilas.
El museo es más pinturabiensabida estuvo tomada anoche.
El número de turistas ha crecido cada año.
A Mi hija le gustaría acaecer un veterinarian.
La ciudad es edificio  una línea reciente del metro.
La sequía ha destruido la mayoría de la cosecha.
El dirigente de oposición criticó el plan del gobierno.
La tienda nos di un descuento porque la caja sufrió menoscabo.
Los conductores de autobuses son encima ataca hoy.
El chef preparado un tasty sopa con vegetales frescos.
El gobierno declaró medidas recientes para proteger bosques.
Los niños están aprendiendo ingleses y franceses en escolares.
Un estudio reciente asoma que andando cada día mejora salud.
La empresa movió su sede a otro país.
Las carreteras estuvieron decoradas con luces para el festival.
La policía encontrada la chica desaparecida segura y bien.
Tengo una cita con el dentista el lunes.
El viento era tan fuerte que  averió varios techos.
El presidente prometió para luchar corrupción.
Los labradores' la lonja abre temprano el sábado mañanas.
El profesor explicó la lección muy claramente.
El personal de hospital obró toda la noche después de la explosión.
El precio de las casas en el capital mantiene subir.
Nuestro equipo perdió la final por un gol solo.
El gobierno dará becas a pocos negocios.
Pintó la cocina mura un brillante amarillo.
El barco llevó cargo de China a Europa.
AL alcalde reciente le gustaría mejorar el transporte público.
Los voluntarios recogieron alimentarios y ropa para el homeless.
El cine en la carretera principal cerrada abajo último año.
El alumnado celebrado el fin de sus exámenes.
La región es bien-sabido para su vino y queso.
La policía detuvo el sospechoso en el borde.
La tormenta corta fuera electricidad a miles de casas.
Mi abuelo luchado en la guerra cuándo  era muy joven.
La empresa lanzó un teléfono reciente con una pantalla más grande.
El consejo de pueblo reparó la fuente antigua en la plaza.
Un perro encontrado el perdió hiker en las montañas.
El gobierno ha prometido para construir una escuela reciente en cada distrito.
Pasamos el excursionismo de tarde a lo largo del río.
El juez sentenció el hombre a tres años en prisión.
La panadería abre en seis por la mañana.
El número de ciudadanos desempleados cayó último mes.
La actriz ganó un premio para su función en la película.
La ola de calor está esperada para durar hasta que viernes.
Los empleados de la empresa recibirán una bonificación este año.
Mi amigo mejor está casándose en junio.
Los soldados regresaron en casa después de que seis meses en el extranjero.
La biblioteca de ciudad tiene una colección grande de mapas antiguos.
El precio de electricidad ascenderá en enero.
El puente reciente estuvo inaugurado por la reina.
Los niños construyeron un monigote de nieve en el jardín.
Los labradores protestaron contra importaciones baratas.
El hotel era demasiado caro, así que  nos quedamos con amigos.
La policía advirtió motor aproximadamente hielo en las carreteras.
El ministro visitó la fábrica para cumplir los empleados.
Nuestro vuelo estuvo anulado debido a la huelga.
El museo reciente dice la historia de la ciudad.
El doctor le dijo para descansar para una semana.
La empresa inauguró una fábrica que emplea mil ciudadanos.
La multitud aclamada cuándo el equipo puntuado el gol ganador.
El gobierno bajará impuestos para familias con niños.
Mi hermana teaches matemática en una escuela secundaria.
El teatro antiguo será girado a un casal.
La nieve pesada cerrada las escuelas para dos días.
Los pescadores no podrían ir a mar debido a la tormenta.
El tendero nos saludé con una sonrisa.
La campaña de elección oficialmente empieza el próximo lunes.
Los investigadores están probando una vacuna reciente contra la enfermedad.
Los vecinos renegaron sobre el ruido del sitio de construcción.
El país exportó más vino que nunca antes.
Tomamos los niños a la playa para el día.
La policía está investigando la causa del fuego.
Los precios de corte de la empresa para atraer más clientes.
El jardín es lleno de rosas en verano temprano.
EL habla del presidente estuvo retransmitida en televisión nacional.
